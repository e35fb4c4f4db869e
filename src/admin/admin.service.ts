import { BadRequestException, ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import type { AdminActor, AdminAuditRow } from '../database/schema.js';
import { allGpts, findGame, findGpt } from '../game-support/registry.js';
import type { GptSupport } from '../game-support/types.js';
import { AdminAuditRepository } from '../repositories/admin-audit.repository.js';
import { CatalogRepository } from '../repositories/catalog.repository.js';
import { ScoresRepository } from '../repositories/scores.repository.js';
import { UsersRepository } from '../repositories/users.repository.js';
import { UserBusyError } from '../scoring/import-lock.js';
import { AccountRemovalService } from '../scoring/removal/account-removal.service.js';
import { MaintenanceService } from '../scoring/maintenance/maintenance.service.js';
import type { PbFilter, ScoreFilter } from '../scoring/maintenance/recalc.js';
import { ScoreRemovalService } from '../scoring/removal/score-removal.service.js';
import type { ChangeLogLevelDto, DestroyChartDto, DestroyUgptDto, RecalcDto, ResyncPbsDto } from './dto/admin.dto.js';
import { LogLevelService } from './log-level.service.js';
import { NotificationsService } from '../notifications/notifications.service.js';

/** Who performs an admin action: an administrator (through a session or a token) or the CLI. */
export interface Actor {
  userID: number | null;
  via: AdminActor;
}

const DEFAULT_RESET_MINUTES = 60;
const SCORE_FILTER_KEYS = ['game', 'playtype', 'chartID', 'userID', 'importType', 'service', 'timeAddedFrom', 'timeAddedTo'] as const;

/** A filter's game and playtype must name a supported game and one of its playtypes. */
function checkGameKeys(filter: { game?: string; playtype?: string }) {
  if (filter.game !== undefined && !findGame(filter.game)) throw new BadRequestException(`Unknown game ${filter.game}.`);
  if (filter.playtype === undefined) return;
  const known = filter.game === undefined ? allGpts().some((g) => g.playtype === filter.playtype) : findGpt(filter.game, filter.playtype);
  if (!known) throw new BadRequestException(`Unknown playtype ${filter.playtype}${filter.game === undefined ? '' : ` for ${filter.game}`}.`);
}

function gptOrThrow(game: string, playtype: string): GptSupport {
  const gpt = findGpt(game, playtype);
  if (!gpt) throw new BadRequestException(findGame(game) ? `Invalid playtype ${playtype} for ${game}.` : `Unknown game ${game}.`);
  return gpt;
}

/** Copies the whitelisted keys that are set: a request body never reaches a query as it is. */
function pick<T extends object>(source: T, keys: readonly (keyof T)[]): Partial<T> {
  return Object.fromEntries(keys.filter((k) => source[k] !== undefined).map((k) => [k, source[k]])) as Partial<T>;
}

function busy<T>(promise: Promise<T>): Promise<T> {
  return promise.catch((err: unknown) => {
    if (err instanceof UserBusyError) throw new ConflictException('A user concerned has an import in progress; try again once it has finished.');
    throw err;
  });
}

/** The admin operations (spec 4.14), shared by the routes and the CLI; each one is written to the audit log. */
@Injectable()
export class AdminService {
  constructor(
    private readonly audit: AdminAuditRepository,
    private readonly scores: ScoresRepository,
    private readonly users: UsersRepository,
    private readonly catalog: CatalogRepository,
    private readonly removal: ScoreRemovalService,
    private readonly accounts: AccountRemovalService,
    private readonly maintenance: MaintenanceService,
    private readonly logLevel: LogLevelService,
    private readonly notifications: NotificationsService,
  ) {}

  private async record(actor: Actor, action: string, params: Record<string, unknown>) {
    await this.audit.insert({ userID: actor.userID, via: actor.via, action, params, timestamp: Date.now() });
  }

  async changeLogLevel(actor: Actor, dto: ChangeLogLevelDto): Promise<{ from: string; to: string }> {
    const minutes = dto.noReset ? null : (dto.duration ?? DEFAULT_RESET_MINUTES);
    const change = await this.logLevel.change(dto.logLevel, minutes);
    await this.record(actor, 'change-log-level', { logLevel: dto.logLevel, duration: minutes, noReset: dto.noReset ?? false });
    return change;
  }

  async deleteScore(actor: Actor, scoreID: string): Promise<void> {
    const score = await this.scores.findById(scoreID);
    if (!score) throw new NotFoundException(`The score ${scoreID} does not exist.`);
    if (!(await busy(this.removal.deleteScore(score.userID, scoreID)))) throw new NotFoundException(`The score ${scoreID} does not exist.`);
    await this.record(actor, 'delete-score', { scoreID, userID: score.userID, chartID: score.chartID });
  }

  async resyncPbs(actor: Actor, dto: ResyncPbsDto): Promise<number> {
    const filter: PbFilter = pick(dto.filters ?? dto.filter ?? {}, ['game', 'playtype', 'chartID', 'userID']);
    checkGameKeys(filter);
    const pbs = await this.maintenance.resyncPbs(dto.userIDs, filter);
    await this.record(actor, 'resync-pbs', { userIDs: dto.userIDs ?? null, filters: filter, pbs });
    return pbs;
  }

  async destroyUgpt(actor: Actor, dto: DestroyUgptDto): Promise<void> {
    const gpt = gptOrThrow(dto.game, dto.playtype);
    if (!(await this.users.findById(dto.userID))) throw new NotFoundException(`The user ${dto.userID} does not exist.`);
    if (!(await busy(this.removal.destroyProfile(dto.userID, gpt))))
      throw new NotFoundException(`The user ${dto.userID} has not played ${dto.game} ${dto.playtype}.`);
    await this.record(actor, 'destroy-ugpt', { userID: dto.userID, game: dto.game, playtype: dto.playtype });
  }

  async deleteUser(actor: Actor, userID: number): Promise<void> {
    // The audit entry names its actor, who must still exist once it is written.
    if (actor.userID === userID) throw new BadRequestException('Delete your own account through DELETE /users/:userID.');
    if (!(await busy(this.accounts.deleteAccount(userID)))) throw new NotFoundException(`The user ${userID} does not exist.`);
    await this.record(actor, 'delete-user', { userID });
  }

  async destroyChart(actor: Actor, dto: DestroyChartDto): Promise<void> {
    if (!findGame(dto.game)) throw new BadRequestException(`Unknown game ${dto.game}.`);
    const found = await this.catalog.chartWithSong(dto.chartID);
    if (!found || found.chart.game !== dto.game) throw new NotFoundException(`The ${dto.game} chart ${dto.chartID} does not exist.`);
    await busy(this.removal.destroyChart(found.chart));
    await this.record(actor, 'destroy-chart', { chartID: dto.chartID, game: dto.game });
  }

  /** Marks the user a supporter (Tachi's UserDocument isSupporter), or no longer one. */
  async setSupporter(actor: Actor, userID: number, isSupporter: boolean): Promise<void> {
    await this.users.setSupporter(userID, isSupporter);
    await this.record(actor, isSupporter ? 'add-supporter' : 'remove-supporter', { userID });
  }

  /** A SITE_ANNOUNCEMENT notification with this title to every user (as the CLI's `announce`); returns how many it reached. */
  async announce(actor: Actor, title: string): Promise<number> {
    const sent = await this.notifications.announce(title);
    await this.record(actor, 'announcement', { title, sent });
    return sent;
  }

  /** Re-evaluates every user's goal subscriptions (and so the quests holding a goal that moved) from their PBs. */
  async reprocessAllGoals(actor: Actor): Promise<{ profiles: number; moved: number }> {
    const result = await this.maintenance.reprocessAllGoals();
    await this.record(actor, 'reprocess-all-goals', result);
    return result;
  }

  /** Recalculates the matching scores; onBatch reports how many are done so far (the CLI's progress bar). */
  async recalc(actor: Actor, dto: RecalcDto, onBatch?: (done: number) => void): Promise<number> {
    const filter: ScoreFilter = pick(dto, SCORE_FILTER_KEYS);
    checkGameKeys(filter);
    const scoresRecalced = await this.maintenance.recalc(filter, onBatch);
    await this.record(actor, 'recalc', { filter, scoresRecalced });
    return scoresRecalced;
  }

  countScores(dto: RecalcDto): Promise<number> {
    return this.maintenance.countScores(pick(dto, SCORE_FILTER_KEYS));
  }

  listAudit(limit: number, before?: number): Promise<AdminAuditRow[]> {
    return this.audit.list(limit, before);
  }
}
