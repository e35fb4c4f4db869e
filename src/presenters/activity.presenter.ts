import { ApiProperty } from '@nestjs/swagger';
import type { ClassAchievementRow } from '../database/schema.js';
import { definePresenter } from './profile.js';
import { SessionDocument } from './session.presenter.js';
import { UserDocument } from './user.presenter.js';

/** A class raise (a first value counts as one): Tachi's ClassAchievementDocument. */
export class ClassRaiseDocument {
  @ApiProperty({ type: 'integer' }) userID!: number;
  @ApiProperty() game!: string;
  @ApiProperty() playtype!: string;
  @ApiProperty() classSet!: string;
  @ApiProperty({ type: String, nullable: true }) classOldValue!: string | null;
  @ApiProperty() classValue!: string;
  @ApiProperty({ type: 'integer', description: 'Unix ms.' }) timeAchieved!: number;
}

export function toClassRaiseDocument(row: ClassAchievementRow): ClassRaiseDocument {
  return {
    userID: row.userID,
    game: row.game,
    playtype: row.playtype,
    classSet: row.classSet,
    classOldValue: row.classOldValue,
    classValue: row.classValue,
    timeAchieved: row.timeAchieved,
  };
}

/** An activity feed: the latest sessions, the class raises since the earliest of them, and the users of both. */
export class ActivityDocument {
  @ApiProperty({ type: [SessionDocument], description: 'Newest started first.' }) sessions!: SessionDocument[];
  @ApiProperty({ type: [ClassRaiseDocument], description: "Class raises between the earliest session's start and the page's end, newest first." })
  classRaises!: ClassRaiseDocument[];
  @ApiProperty({ type: [UserDocument], description: 'The users these belong to.' }) users!: UserDocument[];
}

/**
 * Tachi's activity answer. Built from what this service keeps: sessions and class raises. Tachi
 * also lists the highlighted scores and achieved goals and quests of the window; those lists are
 * empty here (the feed does not read them yet).
 */
export class TachiActivityDocument {
  @ApiProperty({ type: [SessionDocument] }) recentSessions!: SessionDocument[];
  @ApiProperty({ type: [ClassRaiseDocument] }) achievedClasses!: ClassRaiseDocument[];
  @ApiProperty({ type: [UserDocument] }) users!: UserDocument[];
  @ApiProperty({ type: 'array', items: { type: 'object' }, description: 'Always empty here.' }) recentlyHighlightedScores!: never[];
  @ApiProperty({ type: 'array', items: { type: 'object' }, description: 'Always empty here.' }) songs!: never[];
  @ApiProperty({ type: 'array', items: { type: 'object' }, description: 'Always empty here.' }) charts!: never[];
  @ApiProperty({ type: 'array', items: { type: 'object' }, description: 'Always empty here.' }) goals!: never[];
  @ApiProperty({ type: 'array', items: { type: 'object' }, description: 'Always empty here.' }) goalSubs!: never[];
  @ApiProperty({ type: 'array', items: { type: 'object' }, description: 'Always empty here.' }) quests!: never[];
  @ApiProperty({ type: 'array', items: { type: 'object' }, description: 'Always empty here.' }) questSubs!: never[];
}

export const toActivityDocument = definePresenter('activity', {
  spec: (source: { sessions: SessionDocument[]; classRaises: ClassRaiseDocument[]; users: UserDocument[] }): ActivityDocument => ({ ...source }),
  tachi: (_source, { sessions, classRaises, users }): TachiActivityDocument => ({
    recentSessions: sessions,
    achievedClasses: classRaises,
    users,
    recentlyHighlightedScores: [],
    songs: [],
    charts: [],
    goals: [],
    goalSubs: [],
    quests: [],
    questSubs: [],
  }),
  schemas: { spec: ActivityDocument, tachi: TachiActivityDocument },
});

/** A user's score and session counts (`GET /users/:userID/stats`); the same in both profiles. */
export class UserStatsDocument {
  @ApiProperty({ type: 'integer' }) scores!: number;
  @ApiProperty({ type: 'integer' }) sessions!: number;
}
