import { ApiProperty } from '@nestjs/swagger';
import type { sessions } from '../database/schema.js';
import { ApiMapProperty, NULLABLE_NUMBER } from './api-schema.js';

export type SessionRecord = typeof sessions.$inferSelect;

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

export function toSessionDocument(s: SessionRecord, scoreIDs: readonly string[]): SessionDocument {
  return {
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
  };
}
