import { ApiProperty } from '@nestjs/swagger';
import type { ClassAchievementRow } from '../database/schema.js';
import { definePresenter } from './profile.js';
import { ChartDocument, FolderDocument, SongDocument } from './catalog.presenter.js';
import { FolderStatsDocument, TachiFolderStatsDocument } from './folder-stats.presenter.js';
import { ScoreDocument, TachiScoreDocument } from './score.presenter.js';
import { SessionDocument } from './session.presenter.js';
import { GoalDocument, GoalSubDocument, QuestDocument, QuestSubDocument } from './targets.presenter.js';
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

/** What an activity feed is built from: the documents of the window, each already presented. */
export interface ActivitySource {
  sessions: SessionDocument[];
  classRaises: ClassRaiseDocument[];
  users: UserDocument[];
  highlightedScores: ScoreDocument[];
  songs: SongDocument[];
  charts: ChartDocument[];
  goalSubs: GoalSubDocument[];
  goals: GoalDocument[];
  questSubs: QuestSubDocument[];
  quests: QuestDocument[];
}

/**
 * An activity feed: the latest sessions, and from the earliest of them on, the class raises, the
 * highlighted scores (with their songs and charts), the goals and quests achieved (with their
 * goal and quest documents), and the users of all of these.
 */
export class ActivityDocument {
  @ApiProperty({ type: [SessionDocument], description: 'Newest started first.' }) sessions!: SessionDocument[];
  @ApiProperty({ type: [ClassRaiseDocument], description: "Class raises between the earliest session's start and the page's end, newest first." })
  classRaises!: ClassRaiseDocument[];
  @ApiProperty({ type: [ScoreDocument], description: 'Highlighted scores achieved in the same window, newest first (at most 100).' })
  highlightedScores!: ScoreDocument[];
  @ApiProperty({ type: [SongDocument] }) songs!: SongDocument[];
  @ApiProperty({ type: [ChartDocument] }) charts!: ChartDocument[];
  @ApiProperty({ type: [GoalSubDocument], description: 'Goals achieved in the window (not on subscribing), newest first (at most 100).' })
  goalSubs!: GoalSubDocument[];
  @ApiProperty({ type: [GoalDocument] }) goals!: GoalDocument[];
  @ApiProperty({ type: [QuestSubDocument], description: 'Quests achieved in the window (not on subscribing), newest first (at most 50).' })
  questSubs!: QuestSubDocument[];
  @ApiProperty({ type: [QuestDocument] }) quests!: QuestDocument[];
  @ApiProperty({ type: [UserDocument], description: 'The users these belong to.' }) users!: UserDocument[];
}

/** Tachi's activity answer (GetRecentActivity's shape). */
export class TachiActivityDocument {
  @ApiProperty({ type: [SessionDocument] }) recentSessions!: SessionDocument[];
  @ApiProperty({ type: [ClassRaiseDocument] }) achievedClasses!: ClassRaiseDocument[];
  @ApiProperty({ type: [UserDocument] }) users!: UserDocument[];
  @ApiProperty({ type: [TachiScoreDocument] }) recentlyHighlightedScores!: TachiScoreDocument[];
  @ApiProperty({ type: [SongDocument] }) songs!: SongDocument[];
  @ApiProperty({ type: [ChartDocument] }) charts!: ChartDocument[];
  @ApiProperty({ type: [GoalDocument] }) goals!: GoalDocument[];
  @ApiProperty({ type: [GoalSubDocument] }) goalSubs!: GoalSubDocument[];
  @ApiProperty({ type: [QuestDocument] }) quests!: QuestDocument[];
  @ApiProperty({ type: [QuestSubDocument] }) questSubs!: QuestSubDocument[];
}

export const toActivityDocument = definePresenter('activity', {
  spec: (source: ActivitySource): ActivityDocument => ({
    sessions: source.sessions,
    classRaises: source.classRaises,
    highlightedScores: source.highlightedScores,
    songs: source.songs,
    charts: source.charts,
    goalSubs: source.goalSubs,
    goals: source.goals,
    questSubs: source.questSubs,
    quests: source.quests,
    users: source.users,
  }),
  tachi: (source): TachiActivityDocument => ({
    recentSessions: source.sessions,
    achievedClasses: source.classRaises,
    users: source.users,
    // Score documents: presentAs turns each into its tachi variant.
    recentlyHighlightedScores: source.highlightedScores as unknown as TachiScoreDocument[],
    songs: source.songs,
    charts: source.charts,
    goals: source.goals,
    goalSubs: source.goalSubs,
    quests: source.quests,
    questSubs: source.questSubs,
  }),
  schemas: { spec: ActivityDocument, tachi: TachiActivityDocument },
});

/** The dashboard summary's window: Tachi's 16 hours. */
export const RECENT_SUMMARY_HOURS = 16;

/** Recently viewed folders the summary lists at most (Tachi's 4). */
export const RECENT_SUMMARY_FOLDERS = 4;

export interface RecentSummarySource {
  since: number;
  playcount: number;
  sessions: SessionDocument[];
  achievedGoalSubs: GoalSubDocument[];
  improvedGoalSubs: GoalSubDocument[];
  goals: GoalDocument[];
  /** The folders the user viewed since then, on any GPT, most recently viewed first. */
  folders: FolderDocument[];
  /** The user's distributions on each of those folders, in the same order. */
  folderStats: FolderStatsDocument[];
}

/** What a user did in the last 16 hours (`GET /users/:userID/recent-summary`). */
export class RecentSummaryDocument {
  @ApiProperty({ type: 'integer', description: 'Unix ms: the start of the window (16 hours ago).' }) since!: number;
  @ApiProperty({ type: 'integer', description: 'Scores imported since then.' }) playcount!: number;
  @ApiProperty({ type: [SessionDocument], description: 'Sessions that ended since then, latest first (at most 100).' }) sessions!: SessionDocument[];
  @ApiProperty({ type: [GoalSubDocument], description: 'Goals achieved since then (not on subscribing), latest first (at most 100).' })
  achievedGoalSubs!: GoalSubDocument[];
  @ApiProperty({ type: [GoalSubDocument], description: 'Goals not achieved whose progress moved since then, latest first (at most 100).' })
  improvedGoalSubs!: GoalSubDocument[];
  @ApiProperty({ type: [GoalDocument], description: 'The goals of both lists.' }) goals!: GoalDocument[];
  @ApiProperty({
    type: [FolderDocument],
    description: 'Folders the user viewed since then (POST …/folders/:folderID/viewed), on any game, latest view first (at most 4).',
  })
  folders!: FolderDocument[];
  @ApiProperty({ type: [FolderStatsDocument], description: "The user's lamp and grade distributions on each of those folders, in the same order." })
  folderStats!: FolderStatsDocument[];
}

/** Tachi's recent-summary body. recentFolders: the folders viewed in the window (any GPT, latest first, at most 4), with their stats. */
export class TachiRecentSummaryDocument {
  @ApiProperty({ type: 'integer' }) recentPlaycount!: number;
  @ApiProperty({ type: [SessionDocument] }) recentSessions!: SessionDocument[];
  @ApiProperty({ type: [FolderDocument], description: 'Folders viewed in the last 16 hours, on any game, latest view first (at most 4).' })
  recentFolders!: FolderDocument[];
  @ApiProperty({ type: [TachiFolderStatsDocument], description: "The user's distributions on each of recentFolders, in the same order." })
  recentFolderStats!: FolderStatsDocument[];
  @ApiProperty({ type: [GoalSubDocument] }) recentAchievedGoals!: GoalSubDocument[];
  @ApiProperty({ type: [GoalDocument] }) recentGoals!: GoalDocument[];
  @ApiProperty({ type: [GoalSubDocument] }) recentImprovedGoals!: GoalSubDocument[];
}

export const toRecentSummaryDocument = definePresenter('recentSummary', {
  spec: (source: RecentSummarySource): RecentSummaryDocument => ({ ...source }),
  tachi: (source): TachiRecentSummaryDocument => ({
    recentPlaycount: source.playcount,
    recentSessions: source.sessions,
    // Folder and stats documents: presentAs turns each into its tachi variant.
    recentFolders: source.folders,
    recentFolderStats: source.folderStats,
    recentAchievedGoals: source.achievedGoalSubs,
    recentGoals: source.goals,
    recentImprovedGoals: source.improvedGoalSubs,
  }),
  schemas: { spec: RecentSummaryDocument, tachi: TachiRecentSummaryDocument },
});

/** A user's score and session counts (`GET /users/:userID/stats`); the same in both profiles. */
export class UserStatsDocument {
  @ApiProperty({ type: 'integer' }) scores!: number;
  @ApiProperty({ type: 'integer' }) sessions!: number;
}
