import { ApiProperty } from '@nestjs/swagger';
import { ApiMapProperty, RANKING } from '../../presenters/api-schema.js';
import { GameStatsDocument, type RankingDocument } from '../../presenters/game-stats.presenter.js';

/** A UserGameStatsDocument with the player's place under each profile rating algorithm. */
export class RankedGameStatsDocument extends GameStatsDocument {
  @ApiMapProperty(RANKING, 'Profile rating algorithm → {ranking, outOf}.') __rankingData!: Record<string, RankingDocument>;
}

/** Where the uploaded picture is served. */
export class ImageLocationResponse {
  @ApiProperty({ description: 'URL to fetch the picture.' }) get!: string;
}
