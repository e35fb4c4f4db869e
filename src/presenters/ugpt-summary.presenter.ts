import { ApiProperty } from '@nestjs/swagger';
import { ApiMapProperty, RANKING } from './api-schema.js';
import { GameStatsDocument, type RankingDocument } from './game-stats.presenter.js';
import { definePresenter } from './profile.js';
import { ScoreDocument } from './score.presenter.js';

/** A user's profile on a GPT (GET /users/:userID/games/:game/:playtype). */
export class UgptSummaryResponse {
  @ApiProperty({ type: GameStatsDocument }) gameStats!: GameStatsDocument;
  @ApiProperty({ type: ScoreDocument, nullable: true, description: 'The earliest score with a time.' }) firstScore!: ScoreDocument | null;
  @ApiProperty({ type: ScoreDocument, nullable: true, description: 'The latest score with a time.' }) mostRecentScore!: ScoreDocument | null;
  @ApiProperty({ type: 'integer' }) totalScores!: number;
  @ApiMapProperty(RANKING, 'Profile rating algorithm → {ranking, outOf}.') rankingData!: Record<string, RankingDocument>;
}

/** Tachi's (HEAD) profile on a GPT: adds `playtime`. (The nested documents are Tachi's under this profile.) */
export class TachiUgptSummaryResponse extends UgptSummaryResponse {
  @ApiProperty({ type: 'integer', description: "The sum of the user's sessions' lengths on the GPT, in ms." }) playtime!: number;
}

export const toUgptSummaryResponse = definePresenter('ugptSummary', {
  spec: ({ playtime: _playtime, ...summary }: UgptSummaryResponse & { playtime: number }): UgptSummaryResponse => summary,
  tachi: ({ playtime }, summary): TachiUgptSummaryResponse => ({ ...summary, playtime }),
  schemas: { spec: UgptSummaryResponse, tachi: TachiUgptSummaryResponse },
});
