import { ConflictException, HttpException, Inject, Injectable, Logger, NotFoundException, type OnApplicationBootstrap } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { randomHex } from '../common/crypto.js';
import { ImportsRepository } from '../repositories/imports.repository.js';
import { UserBusyError, type HeldUserLock } from '../scoring/import-lock.js';
import { ImportLockService } from '../scoring/import-lock.service.js';
import { findGpt } from '../game-support/registry.js';
import type { ChartInfo, GptSupport } from '../game-support/types.js';
import { ImportPipeline, type ConvertBatch } from './import-pipeline.js';
import { IMPORT_QUEUE, type ImportQueue } from './import-queue.js';
import { IMPORT_TYPES_TOKEN, type ImportRequest, type ImportType, type ParsedImport } from './import-types/types.js';
import { toImportDocument, type ImportDocument } from '../presenters/import.presenter.js';
import { WebhooksService } from '../webhooks/webhooks.service.js';
import type { ImportRow, NewImportRow } from '../database/schema.js';
import type { Tx } from '../database/database.js';

/** Reports a step of an import; the import goes on once a returned promise settles. */
export type Progress = (description: string) => void | Promise<void>;

/** The steps of a queued import a worker can die in, in order (see IMPORT_STEP_PAUSE_MS). */
export const IMPORT_STEPS = ['taken', 'matching', 'converted', 'written', 'committed', 'published'] as const;
export type ImportStep = (typeof IMPORT_STEPS)[number];

/** A queued import whose job has not run for this long is enqueued again when its job is gone (Redis lost it); an existing job is left as it is. */
export const STRANDED_IMPORT_AGE_MS = 10_000;

/**
 * The fetch step of import types whose input comes from another service (`api/`): run where the
 * import runs (inline, or in the worker for a queued import), inside the user's import lock, before
 * parsing. What it returns is the import's input; `afterWrite` runs in the import's transaction (a
 * sync's cursor), so it is kept only when the import commits; `emptyReason` says why an import that
 * brought no scores brought none. Throws an HttpException for a fatal problem: the import fails with it.
 */
export interface InputFetcher {
  handles(importType: string): boolean;
  fetch(userID: number, importType: string, importID: string): Promise<FetchedInput>;
}
export interface FetchedInput {
  input: unknown;
  emptyReason?: string;
  afterWrite?: (tx: Tx) => Promise<void>;
}

/** How execute runs an import: its progress reports, the input it keeps, a fetch step's result, a hook's insert-completed row, fault-test steps. */
interface ExecuteOptions {
  progress?: Progress;
  /** The input kept in import_inputs (JSON text); none when undefined. */
  input?: string;
  fetched?: FetchedInput;
  /** The user's lock the import holds: released in the import's transaction, so that its commit frees the user at once. */
  lock?: HeldUserLock;
  /** A score hook's import: its row is inserted completed with the scores (nobody polls it). */
  hook?: { insert: NewImportRow };
  step?: (step: ImportStep) => Promise<void>;
}

export type SubmitResult = { kind: 'completed'; document: ImportDocument } | { kind: 'queued'; importID: string; url: string };

/** How a failed import reports its failure: a client's mistake with its status and message, anything else as a 500. */
function failureOf(err: unknown): { statusCode: number; message: string } {
  const statusCode = err instanceof HttpException ? err.getStatus() : 500;
  const message = err instanceof HttpException ? err.message : 'An internal error stopped this import. Nothing from it was saved.';
  return { statusCode, message };
}

@Injectable()
export class ImportsService implements OnApplicationBootstrap {
  private readonly logger = new Logger(ImportsService.name);
  private readonly fetchers: InputFetcher[] = [];

  constructor(
    private readonly imports: ImportsRepository,
    private readonly locks: ImportLockService,
    private readonly pipeline: ImportPipeline,
    private readonly config: AppConfig,
    @Inject(IMPORT_QUEUE) private readonly queue: ImportQueue,
    @Inject(IMPORT_TYPES_TOKEN) private readonly types: readonly ImportType[],
    private readonly webhooks: WebhooksService,
  ) {}

  /** Registers the fetch step of import types whose input another module fetches (from-api's). */
  registerFetcher(fetcher: InputFetcher): void {
    this.fetchers.push(fetcher);
  }

  private fetcherOf(importType: string): InputFetcher | undefined {
    return this.fetchers.find((f) => f.handles(importType));
  }

  /**
   * Submits an import whose input a registered fetcher brings (POST /import/from-api): queued
   * (202 + poll; the worker fetches), or run now under the user's lock (409 while another runs).
   */
  async submitFetched(userID: number, type: ImportType, userIntent: boolean): Promise<SubmitResult> {
    const fetcher = this.fetcherOf(type.name);
    if (!fetcher) throw new Error(`No fetch step is registered for ${type.name}.`);
    const importID = randomHex(20);
    const base = { importID, userID, importType: type.name, userIntent, timeQueued: Date.now() };
    // Its input is fetched where it runs. A stored one marks it queued work (re-enqueued if Redis loses its job, see requeueStranded).
    if (this.queue.mode === 'queue') return this.enqueueStored(base, JSON.stringify({ fetchedWhenRun: type.name }));
    return this.inlineUnderLock(userID, importID, async (lock) => {
      await this.imports.insert({ ...base, status: 'ongoing', progress: 'Fetching scores.' });
      try {
        const fetched = await fetcher.fetch(userID, type.name, importID);
        const parsed = type.parse(fetched.input, { maxScores: this.config.IMPORT_MAX_SCORES });
        return { kind: 'completed', document: await this.execute(importID, userID, type, parsed, { input: this.kept(fetched.input), fetched, lock }) };
      } catch (err) {
        await this.fail(importID, err);
        throw err;
      }
    });
  }

  /** Inline imports left ongoing by a process that stopped are failed, so that their polls end. */
  async onApplicationBootstrap(): Promise<void> {
    const failed = await this.locks.failImportsLeftByStoppedProcesses();
    if (failed) this.logger.warn(`${failed} import(s) interrupted by a stopped process were marked failed.`);
  }

  /**
   * Submits an import of a registered type. The request is read and its structure checked at once
   * (400/413 before anything is stored). Inline, the import runs now and its ImportDocument is
   * returned (409 if the user already has one running); in queue mode its input is stored and
   * enqueued, and the poll URL returned. `inline` runs it now even in queue mode: score hooks
   * answer their clients with the result.
   */
  async submit(userID: number, type: ImportType, request: ImportRequest, userIntent: boolean, options: { inline?: boolean } = {}): Promise<SubmitResult> {
    const input = type.read(request);
    const parsed = type.parse(input, { maxScores: this.config.IMPORT_MAX_SCORES });
    const importType = type.name;
    const importID = randomHex(20);
    const base = { importID, userID, importType, userIntent, timeQueued: Date.now() };
    if (this.queue.mode === 'queue' && !options.inline) return this.enqueueStored(base, JSON.stringify(input));
    return this.inlineUnderLock(userID, importID, async (lock) => {
      if (options.inline) {
        // A score hook's client waits for the answer and polls nothing: the import's row is
        // written completed with its scores, in their transaction, whose commit releases the lock.
        try {
          return {
            kind: 'completed',
            document: await this.execute(importID, userID, type, parsed, {
              input: this.kept(input),
              hook: { insert: { ...base, status: 'completed' } },
              lock,
            }),
          };
        } catch (err) {
          await this.failUnstored(base, err);
          throw err;
        }
      }
      await this.imports.insert({ ...base, status: 'ongoing', progress: 'Importing scores.' });
      try {
        return { kind: 'completed', document: await this.execute(importID, userID, type, parsed, { input: this.kept(input), lock }) };
      } catch (err) {
        await this.fail(importID, err);
        throw err;
      }
    });
  }

  /** Stores a queued import with its input and enqueues it; one that cannot be enqueued is failed, as it would never run. */
  private async enqueueStored(base: Omit<NewImportRow, 'status'>, input: string): Promise<SubmitResult> {
    await this.imports.insert({ ...base, status: 'queued', progress: 'Waiting in the queue.', input });
    await this.queue.enqueue(base.importID).catch(async (err: unknown) => {
      await this.fail(base.importID, err);
      throw err;
    });
    return { kind: 'queued', importID: base.importID, url: this.pollUrl(base.importID) };
  }

  /** Runs an inline import under the user's import lock; another import of theirs running is a 409. */
  private async inlineUnderLock<T>(userID: number, importID: string, run: (lock: HeldUserLock) => Promise<T>): Promise<T> {
    try {
      return await this.locks.withUserLock(userID, importID, run);
    } catch (err) {
      if (err instanceof UserBusyError) throw new ConflictException('You already have an import in progress. Wait for it to finish, then try again.');
      throw err;
    }
  }

  /** The input an import keeps (import_inputs), as JSON text; none with IMPORT_INPUT_RETENTION_DAYS=0. */
  private kept(input: unknown): string | undefined {
    return this.keptText(JSON.stringify(input ?? null));
  }

  private keptText(text: string | null): string | undefined {
    return this.config.IMPORT_INPUT_RETENTION_DAYS > 0 && text !== null ? text : undefined;
  }

  /** Where a client polls the import (GET /imports/:importID/poll-status), at PUBLIC_URL. */
  pollUrl(importID: string): string {
    return `${this.config.PUBLIC_URL.replace(/\/$/, '')}/api/v1/imports/${importID}/poll-status`;
  }

  /**
   * Runs a queued import (the worker's job). Idempotent: a completed import is returned as it is,
   * and an import interrupted by a crash runs again from its stored input. Throws UserBusyError
   * while the user's previous import is still running, so that the worker can retry it later.
   */
  async runQueued(importID: string, progress: Progress): Promise<ImportDocument | undefined> {
    const row = await this.find(importID);
    if (row?.status === 'completed') {
      // Another run finished it (a run that died after its commit, a redelivered job): its webhook events committed with it.
      // A lock still held in its name belongs to a run that died before its commit released it (a lock taken before the
      // release moved into the commit): the import is over, so it is freed now rather than when it goes stale.
      await this.locks.releaseIfHeldBy(row.userID, importID);
      return toImportDocument(row);
    }
    if (!row || row.status === 'failed') return undefined;
    return this.locks.withUserLock(row.userID, importID, async (lock) => {
      await this.step(importID, 'taken');
      await this.setProgress(importID, 'Parsing score data.', 'ongoing');
      const type = this.types.find((t) => t.name === row.importType);
      let parsed: ParsedImport;
      let fetched: FetchedInput | undefined;
      try {
        if (!type) throw new Error(`No import type ${row.importType} is registered.`);
        const fetcher = this.fetcherOf(type.name);
        if (fetcher) {
          await this.setProgress(importID, 'Fetching scores.');
          fetched = await fetcher.fetch(row.userID, type.name, importID);
        }
        parsed = type.parse(fetched ? fetched.input : JSON.parse(row.input ?? 'null'), { maxScores: this.config.IMPORT_MAX_SCORES });
      } catch (err) {
        await this.fail(importID, err);
        return undefined;
      }
      // Stored before the next step: once the import's transaction holds its row, a later write of it would wait for the commit.
      return this.execute(importID, row.userID, type, parsed, {
        progress: (d) => {
          void progress(d);
          return this.setProgress(importID, d);
        },
        // A stored input is already the JSON text kept.
        input: fetched ? this.kept(fetched.input) : this.keptText(row.input),
        fetched,
        lock,
        step: (step) => this.step(importID, step),
      });
    });
  }

  /** Stores a hook's import that failed before its row was written (see submit), as fail() marks one. */
  private async failUnstored(base: Omit<NewImportRow, 'status'>, err: unknown): Promise<void> {
    await this.imports.insertFailed({ ...base, status: 'failed', progress: null, failure: failureOf(err), timeFinished: Date.now() });
  }

  /**
   * Queue mode: enqueues again the queued imports (those with a stored input) whose job Redis no longer has, e.g. after a Redis restart
   * without persistence. The job id is the import id, so an import whose job exists (waiting, running, delayed) is not enqueued twice.
   * Returns how many were looked at.
   */
  async requeueStranded(now = Date.now()): Promise<number> {
    if (this.queue.mode !== 'queue') return 0;
    const ids = await this.imports.strandedQueuedIDs(now - STRANDED_IMPORT_AGE_MS, 1000);
    for (const id of ids) await this.queue.enqueue(id);
    return ids.length;
  }

  /** With IMPORT_STEP_PAUSE_MS (fault testing): logs the step a queued import reached, then waits there. */
  private async step(importID: string, step: ImportStep): Promise<void> {
    const pause = this.config.IMPORT_STEP_PAUSE_MS;
    if (!pause) return;
    this.logger.log(`Import ${importID} step ${step}`);
    await new Promise((resolve) => setTimeout(resolve, pause));
  }

  /** Marks an unfinished import failed for good, with the status and message a poll answers with. A finished import is left as it is. */
  async fail(importID: string, err: unknown): Promise<void> {
    await this.imports.markFailed(importID, failureOf(err));
  }

  find(importID: string): Promise<ImportRow | undefined> {
    return this.imports.findById(importID);
  }

  async findOrThrow(importID: string): Promise<ImportRow> {
    const row = await this.find(importID);
    if (!row) throw new NotFoundException(`The import ${importID} does not exist.`);
    return row;
  }

  private async setProgress(importID: string, description: string, status?: 'ongoing') {
    await this.imports.setProgress(importID, description, status).catch(() => undefined);
  }

  /**
   * Converts, then writes everything in one transaction: scores, orphans, sessions, PBs, stats and
   * the ImportDocument. A failure leaves nothing of the import behind; the caller decides whether
   * the import has failed for good or is retried.
   */
  private async execute(importID: string, userID: number, type: ImportType, parsed: ParsedImport, run: ExecuteOptions = {}): Promise<ImportDocument> {
    const { input, fetched, hook, lock } = run;
    const progress = run.progress ?? (() => undefined);
    const step = run.step ?? (async () => undefined);
    const timeStarted = Date.now();
    const skips = new Map<string, number>();
    const batches = this.batchesOf(importID, userID, type, parsed, skips);
    const total = batches.reduce((n, b) => n + b.elements.length, 0);
    let row: ImportRow;
    let deliveries: number[] = [];
    try {
      await progress(`Matching ${total} scores to charts.`);
      await step('matching');
      const converted = await Promise.all(batches.map((batch) => this.pipeline.convert(batch)));
      await progress(`Saving ${converted.reduce((n, c) => n + c.built.length, 0)} scores, personal bests, sessions and profile statistics.`);
      await step('converted');
      // A run that another run (a redelivered job) finished first answers with the document stored.
      row = await this.pipeline.commitImport(
        importID,
        batches.map((batch, i) => ({ batch, converted: converted[i] })),
        timeStarted,
        {
          emptyReason: (errors) => emptyReasonOf(parsed, skips, errors, fetched),
          afterWrite: async (tx, written) => {
            await fetched?.afterWrite?.(tx);
            // The webhook events commit with the import (an outbox): a process that dies after the commit loses none.
            deliveries = await this.webhooks.storeImportEvents(tx, toImportDocument(written));
          },
          input,
          beforeCommit: () => step('written'),
          ...(hook ? { insert: hook.insert } : {}),
          ...(lock ? { lock } : {}),
        },
      );
      await step('committed');
    } catch (err) {
      if (!(err instanceof HttpException)) this.logger.error(`Import ${importID} failed: ${(err as Error).stack ?? String(err)}`);
      throw err;
    }
    const document = toImportDocument(row);
    // Queued for delivery once committed; a delivery not queued (this process died, Redis was away) is queued by a later sweep.
    this.webhooks.schedule(deliveries);
    await step('published');
    return document;
  }

  /**
   * Converts every item, then groups the scores by playtype and version: the parsed import's batch
   * first (it also carries the refused items and the provided classes), then one per other
   * playtype and version the converter named, and one per other playtype given classes.
   */
  private batchesOf(importID: string, userID: number, type: ImportType, parsed: ParsedImport, skips: Map<string, number>): ConvertBatch[] {
    const batch = (gpt: GptSupport, version: string | null): ConvertBatch => ({
      userID,
      gpt,
      context: { ...parsed.context, version },
      importType: type.name,
      importID,
      elements: [],
      rejected: [],
      timeIdentifiesPlay: type.timesIdentifyPlays !== false,
      classes: {},
      ...(parsed.classesCreateProfile ? { classesCreateProfile: true } : {}),
    });
    const main = batch(parsed.gpt, parsed.context.version);
    main.classes = parsed.classes;
    const byKey = new Map<string, ConvertBatch>([[JSON.stringify([parsed.gpt.playtype, parsed.context.version]), main]]);
    for (const [playtype, classes] of Object.entries(parsed.playtypeClasses ?? {})) {
      if (playtype === parsed.gpt.playtype) continue;
      const gpt = findGpt(parsed.gpt.game, playtype);
      if (!gpt) throw new Error(`The import names classes of ${parsed.gpt.game} ${playtype}, which is no playtype of the game.`);
      const other = batch(gpt, parsed.context.version);
      other.classes = classes;
      byKey.set(JSON.stringify([playtype, parsed.context.version]), other);
    }
    parsed.items.forEach((item, index) => {
      const converted = type.convert(item, parsed);
      if (converted.kind === 'skip') {
        const reason = converted.reason ?? 'not a score to keep';
        skips.set(reason, (skips.get(reason) ?? 0) + 1);
        return;
      }
      if (converted.kind === 'error') return void main.rejected!.push({ index, message: converted.message });
      const playtype = converted.playtype ?? parsed.gpt.playtype;
      const version = converted.version === undefined ? parsed.context.version : converted.version;
      const key = JSON.stringify([playtype, version]);
      let target = byKey.get(key);
      if (!target) {
        const gpt = findGpt(parsed.gpt.game, playtype);
        if (!gpt) return void main.rejected!.push({ index, message: `${parsed.gpt.game} has no playtype '${playtype}'.` });
        target = batch(gpt, version);
        byKey.set(key, target);
      }
      const checkMatch = type.checkMatch?.bind(type);
      target.elements.push({
        index,
        raw: converted.element,
        ...(converted.highlight ? { highlight: true } : {}),
        ...(checkMatch ? { check: (chart: ChartInfo) => checkMatch(item, chart, parsed) } : {}),
      });
    });
    return [...byKey.values()];
  }
}

/**
 * Why an import saved no new score, for its document: the fetch step's reason when it brought no
 * items, every item skipped (with the reasons), or every play already saved. null when its errors say it,
 * and for a class update that carried no scores.
 */
function emptyReasonOf(parsed: ParsedImport, skips: ReadonlyMap<string, number>, errors: number, fetched: FetchedInput | undefined): string | null {
  if (parsed.items.length === 0) {
    // A class update (a dan, a profile's classes) is not an empty import.
    const carriesClasses = Object.keys(parsed.classes).length > 0 || Object.values(parsed.playtypeClasses ?? {}).some((c) => Object.keys(c).length > 0);
    return fetched?.emptyReason ?? (carriesClasses ? null : 'The import carried no scores.');
  }
  const skipped = [...skips.values()].reduce((a, b) => a + b, 0);
  if (skipped === parsed.items.length)
    return `every item skipped: ${[...skips].map(([reason, n]) => `${n} ${n === 1 ? 'play' : 'plays'} ${reason}`).join(', ')}.`;
  if (skipped === 0 && errors === 0) return 'Every play in it was already saved.';
  return null;
}
