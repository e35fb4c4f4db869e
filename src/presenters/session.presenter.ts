import { ApiProperty } from '@nestjs/swagger';
import type { SessionRow } from '../database/schema.js';
import { ApiMapProperty, NULLABLE_NUMBER } from './api-schema.js';
import { definePresenter } from './profile.js';

/** Spec SessionDocument; `scores` are the session's score ids in play order. */
export class SessionDocument {
  @ApiProperty() sessionID!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: String, nullable: true }) desc!: string | null;
  @ApiProperty({ type: 'integer' }) userID!: number;
  @ApiProperty() game!: string;
  @ApiProperty() playtype!: string;
  @ApiProperty({ type: [String], description: 'Score ids in play order.' }) scores!: readonly string[];
  @ApiMapProperty(NULLABLE_NUMBER, 'Session rating algorithm → rating.') calculatedData!: Record<string, number | null>;
  @ApiProperty() highlighted!: boolean;
  @ApiProperty({ type: 'integer', description: 'Unix ms.' }) timeInserted!: number;
  @ApiProperty({ type: 'integer', description: 'Unix ms.' }) timeStarted!: number;
  @ApiProperty({ type: 'integer', description: 'Unix ms.' }) timeEnded!: number;
}

/** Tachi's SessionDocument: `scoreIDs` for the spec's `scores`, `highlight` for `highlighted`. */
export class TachiSessionDocument {
  @ApiProperty() sessionID!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: String, nullable: true }) desc!: string | null;
  @ApiProperty({ type: 'integer' }) userID!: number;
  @ApiProperty() game!: string;
  @ApiProperty() playtype!: string;
  @ApiProperty({ type: [String], description: 'Score ids in play order.' }) scoreIDs!: readonly string[];
  @ApiMapProperty(NULLABLE_NUMBER, 'Session rating algorithm → rating.') calculatedData!: Record<string, number | null>;
  @ApiProperty() highlight!: boolean;
  @ApiProperty({ type: 'integer', description: 'Unix ms.' }) timeInserted!: number;
  @ApiProperty({ type: 'integer', description: 'Unix ms.' }) timeStarted!: number;
  @ApiProperty({ type: 'integer', description: 'Unix ms.' }) timeEnded!: number;
}

const presentSession = definePresenter('session', {
  spec: ({ session: s, scoreIDs }: { session: SessionRow; scoreIDs: readonly string[] }): SessionDocument => ({
    sessionID: s.sessionID,
    name: s.name,
    desc: s.desc,
    userID: s.userID,
    game: s.game,
    playtype: s.playtype,
    scores: scoreIDs,
    calculatedData: s.calculatedData,
    highlighted: s.highlighted,
    timeInserted: s.timeInserted,
    timeStarted: s.timeStarted,
    timeEnded: s.timeEnded,
  }),
  tachi: (_source, { scores, highlighted, ...rest }): TachiSessionDocument => {
    const { calculatedData, timeInserted, timeStarted, timeEnded, ...head } = rest;
    return { ...head, scoreIDs: scores, calculatedData, highlight: highlighted, timeInserted, timeStarted, timeEnded };
  },
  schemas: { spec: SessionDocument, tachi: TachiSessionDocument },
});

export function toSessionDocument(session: SessionRow, scoreIDs: readonly string[]): SessionDocument {
  return presentSession({ session, scoreIDs });
}
