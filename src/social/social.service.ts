import { BadRequestException, ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import type { GptSupport } from '../game-support/types.js';
import { NotificationsService } from '../notifications/notifications.service.js';
import { pickAlg } from '../http/algorithms.js';
import {
  RECENT_SUMMARY_FOLDERS,
  RECENT_SUMMARY_HOURS,
  toActivityDocument,
  toClassRaiseDocument,
  toRecentSummaryDocument,
  type ActivityDocument,
  type RecentSummaryDocument,
  type UserStatsDocument,
} from '../presenters/activity.presenter.js';
import { toFolderDocument, type ChartDocument, type SongDocument } from '../presenters/catalog.presenter.js';
import { toFolderStatsDocument } from '../presenters/folder-stats.presenter.js';
import { toPbDocument, type PbDocument } from '../presenters/pb.presenter.js';
import { toScoreDocument } from '../presenters/score.presenter.js';
import { toSessionDocument } from '../presenters/session.presenter.js';
import { toGoalDocument, toGoalSubDocument, toQuestDocument, toQuestSubDocument } from '../presenters/targets.presenter.js';
import { toUserDocument, type UserDocument } from '../presenters/user.presenter.js';
import { CatalogRepository } from '../repositories/catalog.repository.js';
import { RelatedDocuments } from '../repositories/related-documents.js';
import { SocialRepository, type ActivityFilter } from '../repositories/social.repository.js';
import { TargetsRepository } from '../repositories/targets.repository.js';
import { UgptFoldersRepository } from '../repositories/ugpt-folders.repository.js';
import { UgptSessionsRepository } from '../repositories/ugpt-sessions.repository.js';
import { findGpt } from '../game-support/registry.js';
import { folderStats } from '../ugpt/folder-stats.js';
import { UsersRepository } from '../repositories/users.repository.js';
import type { UserRow } from '../http/auth/auth-context.js';

/** Sessions an activity page holds by default (Tachi's default). */
export const ACTIVITY_SESSIONS = 30;
/** Class raises an activity page holds at most. */
export const ACTIVITY_CLASS_RAISES = 200;
/** Highlighted scores, achieved goals and achieved quests an activity page holds at most. */
export const ACTIVITY_HIGHLIGHTS = 100;
export const ACTIVITY_GOALS = 100;
export const ACTIVITY_QUESTS = 50;
/** PBs the rivals' PB leaderboard holds at most (Tachi's 100), and by default. */
export const RIVAL_PB_LEADERBOARD_LIMIT = { max: 100, default: 100 };
/** Sessions and goals the recent summary lists at most. */
export const RECENT_SUMMARY_LIMIT = 100;

export interface ActivityPage {
  startTime?: number;
  sessions?: number;
}

/** Rivals, following and the activity feeds. */
@Injectable()
export class SocialService {
  constructor(
    private readonly social: SocialRepository,
    private readonly users: UsersRepository,
    private readonly sessions: UgptSessionsRepository,
    private readonly folders: UgptFoldersRepository,
    private readonly notifications: NotificationsService,
    private readonly config: AppConfig,
    private readonly related: RelatedDocuments,
    private readonly catalog: CatalogRepository,
    private readonly targets: TargetsRepository,
  ) {}

  get maxRivals(): number {
    return this.config.MAX_RIVALS;
  }

  async rivals(user: UserRow, gpt: GptSupport): Promise<UserDocument[]> {
    return this.usersInOrder(await this.social.rivalIDs(user.id, gpt.game, gpt.playtype));
  }

  async challengers(user: UserRow, gpt: GptSupport): Promise<UserDocument[]> {
    return this.usersInOrder(await this.social.challengerIDs(user.id, gpt.game, gpt.playtype));
  }

  /**
   * Replaces the user's rivals on the GPT. 400: more than MAX_RIVALS, the user themself, the same
   * user twice, or a user who has not played the GPT (unknown users included). Each newly added
   * rival gets a RIVALED_BY notification. Returns the rivals' user documents.
   */
  async setRivals(user: UserRow, gpt: GptSupport, rivalIDs: number[]): Promise<UserDocument[]> {
    const max = this.config.MAX_RIVALS;
    if (rivalIDs.length > max)
      throw new BadRequestException(`You can have at most ${max} rivals on ${gpt.game} ${gpt.playtype}; ${rivalIDs.length} were given.`);
    if (rivalIDs.includes(user.id)) throw new BadRequestException('You cannot be your own rival.');
    if (new Set(rivalIDs).size !== rivalIDs.length) throw new BadRequestException('rivalIDs names the same user more than once.');
    const played = await this.social.playedGpt(rivalIDs, gpt.game, gpt.playtype);
    const missing = rivalIDs.filter((id) => !played.has(id));
    if (missing.length) throw new BadRequestException(`These users have not played ${gpt.game} ${gpt.playtype} (or do not exist): ${missing.join(', ')}.`);
    const added = await this.social.replaceRivals(user.id, gpt.game, gpt.playtype, rivalIDs, Date.now());
    for (const rivalID of added) {
      await this.notifications.send(rivalID, `${user.username} has set you as a rival on ${gpt.game} ${gpt.playtype}.`, {
        type: 'RIVALED_BY',
        content: { userID: user.id, game: gpt.game, playtype: gpt.playtype },
      });
    }
    return this.usersInOrder(rivalIDs);
  }

  /**
   * The best PBs of the user and their rivals on the GPT under a score rating algorithm (400 for an
   * algorithm the GPT does not have), with their songs, charts and users.
   */
  async rivalPbLeaderboard(
    user: UserRow,
    gpt: GptSupport,
    query: { alg?: string; limit?: number },
  ): Promise<{ pbs: PbDocument[]; songs: SongDocument[]; charts: ChartDocument[]; users: UserDocument[] }> {
    const alg = pickAlg(gpt, 'score', query.alg);
    const userIDs = [...(await this.social.rivalIDs(user.id, gpt.game, gpt.playtype)), user.id];
    const pbs = await this.social.bestPbsOf(userIDs, gpt.game, gpt.playtype, alg, query.limit ?? RIVAL_PB_LEADERBOARD_LIMIT.default);
    const [{ songs, charts }, users] = await Promise.all([this.related.songsAndCharts(gpt.game, pbs), this.related.users(pbs.map((p) => p.userID))]);
    return { pbs: pbs.map(toPbDocument), songs, charts, users };
  }

  /**
   * The rivals' PBs on a chart of the GPT (404 for an unknown chart), best first, then the user's
   * own when they have one; and the rivals' user documents.
   */
  async rivalChartPbs(user: UserRow, gpt: GptSupport, chartID: string): Promise<{ pbs: PbDocument[]; rivals: UserDocument[] }> {
    if (!(await this.catalog.chart(gpt.game, gpt.playtype, chartID))) {
      throw new NotFoundException(`The chart ${chartID} does not exist for ${gpt.game} ${gpt.playtype}.`);
    }
    const rivalIDs = await this.social.rivalIDs(user.id, gpt.game, gpt.playtype);
    const pbs = await this.social.chartPbsOf([...rivalIDs, user.id], chartID);
    const ordered = [...pbs.filter((p) => p.userID !== user.id), ...pbs.filter((p) => p.userID === user.id)];
    return { pbs: ordered.map(toPbDocument), rivals: await this.usersInOrder(rivalIDs) };
  }

  /**
   * What the user did in the last 16 hours: scores imported, sessions ended, goals achieved or moved, and the folders
   * they viewed (on any GPT, latest view first, at most 4, as Tachi) with their distributions on each.
   */
  async recentSummary(user: UserRow, now = Date.now()): Promise<RecentSummaryDocument> {
    const since = now - RECENT_SUMMARY_HOURS * 60 * 60 * 1000;
    const [playcount, sessionRows, achieved, improved, views] = await Promise.all([
      this.social.scoreCountSince(user.id, since),
      this.social.sessionsEndedSince(user.id, since, RECENT_SUMMARY_LIMIT),
      this.social.achievedGoalSubs({ userIDs: [user.id] }, since, now + 1, RECENT_SUMMARY_LIMIT),
      this.social.improvedGoalSubs(user.id, since, RECENT_SUMMARY_LIMIT),
      this.folders.recentViewsAnyGpt(user.id, since, RECENT_SUMMARY_FOLDERS),
    ]);
    const folderIDs = views.map((v) => v.folderID);
    const [scoreIDs, goals, folderRows, chartCounts, enumCounts] = await Promise.all([
      this.sessions.scoreIDsBySession(sessionRows.map((s) => s.sessionID)),
      this.targets.goalsByIds([...new Set([...achieved, ...improved].map((g) => g.goalID))]),
      this.folders.foldersByIds(folderIDs),
      this.folders.chartCounts(folderIDs),
      this.folders.enumCounts(user.id, folderIDs),
    ]);
    const byID = new Map(folderRows.map((f) => [f.folderID, f]));
    const viewed = folderIDs.flatMap((id) => {
      const folder = byID.get(id);
      const gpt = folder && findGpt(folder.game, folder.playtype);
      return folder && gpt ? [{ folder, gpt }] : [];
    });
    return toRecentSummaryDocument({
      folders: viewed.map(({ folder }) => toFolderDocument(folder)),
      folderStats: viewed.map(({ folder, gpt }) => toFolderStatsDocument(folderStats(gpt, folder.folderID, chartCounts.get(folder.folderID) ?? 0, enumCounts))),
      since,
      playcount,
      sessions: sessionRows.map((s) => toSessionDocument(s, scoreIDs.get(s.sessionID) ?? [])),
      achievedGoalSubs: achieved.map(toGoalSubDocument),
      improvedGoalSubs: improved.map(toGoalSubDocument),
      goals: goals.map(toGoalDocument),
    });
  }

  async following(user: UserRow): Promise<UserDocument[]> {
    return this.usersInOrder(await this.social.followingIDs(user.id));
  }

  /** 400 following yourself or past MAX_FOLLOWING, 404 an unknown user, 409 already followed. Returns whom the user follows. */
  async follow(user: UserRow, followedID: number): Promise<UserDocument[]> {
    if (followedID === user.id) throw new BadRequestException('You cannot follow yourself.');
    const followed = await this.users.findById(followedID);
    if (!followed) throw new NotFoundException(`There is no user with id ${followedID}.`);
    const result = await this.social.follow(user.id, followedID, this.config.MAX_FOLLOWING, Date.now());
    if (result === 'already') throw new ConflictException(`You already follow ${followed.username}.`);
    if (result === 'limit') throw new BadRequestException(`You can follow at most ${this.config.MAX_FOLLOWING} users; unfollow someone first.`);
    return this.following(user);
  }

  /** 404 an unknown user, 409 a user not followed. Returns whom the user follows. */
  async unfollow(user: UserRow, followedID: number): Promise<UserDocument[]> {
    const followed = await this.users.findById(followedID);
    if (!followed) throw new NotFoundException(`There is no user with id ${followedID}.`);
    if (!(await this.social.unfollow(user.id, followedID))) throw new ConflictException(`You do not follow ${followed.username}.`);
    return this.following(user);
  }

  stats(user: UserRow): Promise<UserStatsDocument> {
    return this.social.counts(user.id);
  }

  /** Site-wide, or a GPT's, activity. */
  activity(page: ActivityPage, gpt?: GptSupport): Promise<ActivityDocument> {
    return this.feed(gpt ? { game: gpt.game, playtype: gpt.playtype } : {}, page);
  }

  /** A user's activity (on one GPT when given), with their rivals' (on that GPT, or on every GPT they played) and the users they follow. */
  async userActivity(
    user: UserRow,
    page: ActivityPage,
    options: { gpt?: GptSupport; includeRivals?: boolean; includeFollowing?: boolean; onlyRivals?: boolean },
  ): Promise<ActivityDocument> {
    const { gpt } = options;
    const ids = new Set<number>(options.onlyRivals ? [] : [user.id]);
    if (options.includeRivals || options.onlyRivals) {
      for (const id of gpt ? await this.social.rivalIDs(user.id, gpt.game, gpt.playtype) : await this.social.allRivalIDs(user.id)) ids.add(id);
    }
    if (options.includeFollowing) for (const id of await this.social.followingIDs(user.id)) ids.add(id);
    return this.feed({ game: gpt?.game, playtype: gpt?.playtype, userIDs: [...ids] }, page);
  }

  /**
   * The latest sessions started before startTime (default now), and from the earliest of those
   * sessions' start up to startTime: the class raises, highlighted scores (with their songs and
   * charts) and achieved goals and quests; with the users they belong to.
   */
  private async feed(filter: ActivityFilter, page: ActivityPage): Promise<ActivityDocument> {
    const before = page.startTime ?? Date.now() + 1;
    const sessionRows = await this.social.recentSessions(filter, before, page.sessions ?? ACTIVITY_SESSIONS);
    const from = sessionRows.length ? sessionRows[sessionRows.length - 1].timeStarted : 0;
    const [raises, scoreIDs, highlighted, goalSubs, questSubs] = await Promise.all([
      this.social.classRaises(filter, from, before, ACTIVITY_CLASS_RAISES),
      this.sessions.scoreIDsBySession(sessionRows.map((s) => s.sessionID)),
      this.social.highlightedScores(filter, from, before, ACTIVITY_HIGHLIGHTS),
      this.social.achievedGoalSubs(filter, from, before, ACTIVITY_GOALS),
      this.social.achievedQuestSubs(filter, from, before, ACTIVITY_QUESTS),
    ]);
    const userIDs = [...new Set([...sessionRows, ...raises, ...highlighted, ...goalSubs, ...questSubs].map((r) => r.userID))];
    const [catalog, goals, quests, users] = await Promise.all([
      this.songsAndCharts(highlighted),
      this.targets.goalsByIds([...new Set(goalSubs.map((g) => g.goalID))]),
      this.targets.questsByIds([...new Set(questSubs.map((q) => q.questID))]),
      this.usersInOrder(userIDs),
    ]);
    return toActivityDocument({
      sessions: sessionRows.map((s) => toSessionDocument(s, scoreIDs.get(s.sessionID) ?? [])),
      classRaises: raises.map(toClassRaiseDocument),
      highlightedScores: highlighted.map(toScoreDocument),
      songs: catalog.songs,
      charts: catalog.charts,
      goalSubs: goalSubs.map(toGoalSubDocument),
      goals: goals.map(toGoalDocument),
      questSubs: questSubs.map(toQuestSubDocument),
      quests: quests.map(toQuestDocument),
      users,
    });
  }

  /** The songs and charts of scores of any games (song ids are per game). */
  private async songsAndCharts(items: readonly { game: string; songID: number; chartID: string }[]) {
    const games = [...new Set(items.map((i) => i.game))];
    const parts = await Promise.all(
      games.map((game) =>
        this.related.songsAndCharts(
          game,
          items.filter((i) => i.game === game),
        ),
      ),
    );
    return { songs: parts.flatMap((p) => p.songs), charts: parts.flatMap((p) => p.charts) };
  }

  /** User documents in the order of the ids (ids of deleted users are left out). */
  private async usersInOrder(ids: readonly number[]): Promise<UserDocument[]> {
    if (ids.length === 0) return [];
    const byID = new Map((await this.users.findByIds(ids)).map((u) => [u.id, u]));
    return ids.flatMap((id) => {
      const row = byID.get(id);
      return row ? [toUserDocument(row)] : [];
    });
  }
}
