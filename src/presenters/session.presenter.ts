import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { SessionRow } from '../database/schema.js';
import { ApiMapProperty, NULLABLE_NUMBER } from './api-schema.js';
import { ChartDocument, FolderDocument, SongDocument } from './catalog.presenter.js';
import { definePresenter } from './profile.js';
import { ScoreDocument } from './score.presenter.js';
import { UserDocument } from './user.presenter.js';

/** How a session's score compares with the player's best on the chart before the session (Tachi's SessionScoreInfo). */
export type SessionScoreInfo =
  { scoreID: string; isNewScore: true } | { scoreID: string; isNewScore: false; deltas: { score: number; percent: number; lamp: number; grade: number } };

export class SessionScoreInfoDocument {
  @ApiProperty() scoreID!: string;
  @ApiProperty({ description: 'True when the player had no score on the chart before the session.' }) isNewScore!: boolean;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'number' },
    description: 'Not for new scores: score, percent, lamp and grade (as index differences) minus the best before the session; positive is better.',
  })
  deltas?: Record<string, number>;
}

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
  @ApiPropertyOptional({
    type: [SessionScoreInfoDocument],
    description: "Session lists of a player's GPT only (as Tachi): each score's comparison with the best before.",
  })
  __scoreInfo?: SessionScoreInfo[];
}

const presentSession = definePresenter('session', {
  spec: ({ session: s, scoreIDs }: { session: SessionRow; scoreIDs: readonly string[]; scoreInfo?: SessionScoreInfo[] }): SessionDocument => ({
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
  tachi: ({ scoreInfo }, { scores, highlighted, ...rest }): TachiSessionDocument => {
    const { calculatedData, timeInserted, timeStarted, timeEnded, ...head } = rest;
    const document = { ...head, scoreIDs: scores, calculatedData, highlight: highlighted, timeInserted, timeStarted, timeEnded };
    return scoreInfo ? { ...document, __scoreInfo: scoreInfo } : document;
  },
  schemas: { spec: SessionDocument, tachi: TachiSessionDocument },
});

/** A SessionDocument; with scoreInfo, its tachi variant carries it as `__scoreInfo` (Tachi's session lists). */
export function toSessionDocument(session: SessionRow, scoreIDs: readonly string[], scoreInfo?: SessionScoreInfo[]): SessionDocument {
  return presentSession({ session, scoreIDs, scoreInfo });
}

export class SessionWithRelatedResponse {
  @ApiProperty({ type: SessionDocument }) session!: SessionDocument;
  @ApiProperty({ type: [ScoreDocument], description: 'In play order.' }) scores!: ScoreDocument[];
  @ApiProperty({ type: [SongDocument] }) songs!: SongDocument[];
  @ApiProperty({ type: [ChartDocument] }) charts!: ChartDocument[];
  @ApiProperty({ type: UserDocument }) user!: UserDocument;
}

/** Tachi's GET /sessions/:sessionID: the spec's answer and each score's comparison with the best before the session. */
export class TachiSessionWithRelatedResponse extends SessionWithRelatedResponse {
  @ApiProperty({ type: [SessionScoreInfoDocument], description: 'In play order.' }) scoreInfo!: SessionScoreInfo[];
}

/** GET /sessions/:sessionID. spec: {session, scores, songs, charts, user}; tachi adds `scoreInfo`. */
export const toSessionWithRelated = definePresenter('sessionWithRelated', {
  spec: ({ response }: { response: SessionWithRelatedResponse; scoreInfo: SessionScoreInfo[] }): SessionWithRelatedResponse => ({ ...response }),
  tachi: ({ scoreInfo }, spec): TachiSessionWithRelatedResponse => ({ ...spec, scoreInfo }),
  schemas: { spec: SessionWithRelatedResponse, tachi: TachiSessionWithRelatedResponse },
});

/** GET UGPT/sessions/last under spec: the SessionDocument. */
export class LastSessionDocument extends SessionDocument {}

/** GET UGPT/sessions/last under tachi (as Tachi): the session and its scores' comparisons. */
export class TachiLastSessionResponse {
  @ApiProperty({ type: SessionDocument }) session!: SessionDocument;
  @ApiProperty({ type: [SessionScoreInfoDocument] }) scoreInfo!: SessionScoreInfo[];
}

export const toLastSession = definePresenter('lastSession', {
  spec: ({ session, scoreIDs }: { session: SessionRow; scoreIDs: readonly string[]; scoreInfo: SessionScoreInfo[] }): LastSessionDocument => ({
    ...toSessionDocument(session, scoreIDs),
  }),
  tachi: ({ session, scoreIDs, scoreInfo }): TachiLastSessionResponse => ({ session: toSessionDocument(session, scoreIDs), scoreInfo }),
  schemas: { spec: LastSessionDocument, tachi: TachiLastSessionResponse },
});

/** A session on the calendar: when it ran, its name and whether it is highlighted (spec names). */
export class SessionCalendarDocument {
  @ApiProperty() sessionID!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: String, nullable: true }) desc!: string | null;
  @ApiProperty() highlighted!: boolean;
  @ApiProperty({ type: 'integer', description: 'Unix ms.' }) timeStarted!: number;
  @ApiProperty({ type: 'integer', description: 'Unix ms.' }) timeEnded!: number;
  @ApiProperty() game!: string;
  @ApiProperty() playtype!: string;
}

/** Tachi's SessionCalendarDocument: `highlight` for the spec's `highlighted`. */
export class TachiSessionCalendarDocument {
  @ApiProperty() sessionID!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: String, nullable: true }) desc!: string | null;
  @ApiProperty() highlight!: boolean;
  @ApiProperty({ type: 'integer', description: 'Unix ms.' }) timeStarted!: number;
  @ApiProperty({ type: 'integer', description: 'Unix ms.' }) timeEnded!: number;
  @ApiProperty() game!: string;
  @ApiProperty() playtype!: string;
}

export const toSessionCalendarDocument = definePresenter('sessionCalendar', {
  spec: (s: Pick<SessionRow, 'sessionID' | 'name' | 'desc' | 'highlighted' | 'timeStarted' | 'timeEnded' | 'game' | 'playtype'>): SessionCalendarDocument => ({
    sessionID: s.sessionID,
    name: s.name,
    desc: s.desc,
    highlighted: s.highlighted,
    timeStarted: s.timeStarted,
    timeEnded: s.timeEnded,
    game: s.game,
    playtype: s.playtype,
  }),
  tachi: (_s, { highlighted, ...rest }): TachiSessionCalendarDocument => {
    const { timeStarted, timeEnded, game, playtype, ...head } = rest;
    return { ...head, highlight: highlighted, timeStarted, timeEnded, game, playtype };
  },
  schemas: { spec: SessionCalendarDocument, tachi: TachiSessionCalendarDocument },
});

/** A session's raise on a folder: the charts it brought to a lamp or grade (or better) for the first time (Tachi's SessionFolderRaises). */
export class SessionFolderRaiseDocument {
  @ApiProperty({ type: FolderDocument }) folder!: FolderDocument;
  @ApiProperty({ enum: ['lamp', 'grade'] }) type!: 'lamp' | 'grade';
  @ApiProperty({ description: 'The lamp or grade reached.' }) value!: string;
  @ApiProperty({ type: 'integer', description: "The folder's charts at this value or better before the session." }) previousCount!: number;
  @ApiProperty({ type: [String], description: 'The charts the session brought to this value or better.' }) raisedCharts!: string[];
  @ApiProperty({ type: 'integer' }) totalCharts!: number;
}
