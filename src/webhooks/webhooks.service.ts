import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { addInterval, removeInterval } from '../common/intervals.js';
import { AppConfig } from '../config/app-config.js';
import type { Queryable } from '../database/database.js';
import { findGpt } from '../game-support/registry.js';
import { WebhooksRepository, type AttemptRecord, type DeliveryAttempt } from '../repositories/webhooks.repository.js';
import { SecretDecryptError } from '../secrets/secret-cipher.js';
import { clientSecretContext, SecretsService } from '../secrets/secrets.service.js';
import { importEvents, newlyAchievedGoals, newlyAchievedQuests, type ImportEventSource, type WebhookEvent } from './webhook-events.js';
import { sendWebhook } from './webhook-sender.js';
import { webhookHeaders } from './webhook-signing.js';
import { WEBHOOK_QUEUE, type AttemptOutcome, type WebhookQueue } from './webhook-queue.js';

/** Deliveries a poll claims at once. */
const POLL_BATCH = 10;
/** The regular poll's name in the SchedulerRegistry. */
export const WEBHOOK_POLL_JOB = 'webhook-poll';

/** Delay before the retry that follows attempt `attempts` (1-based): base, then doubling. */
export function retryDelayMs(baseMs: number, attempts: number): number {
  return baseMs * 2 ** (attempts - 1);
}

/**
 * Webhook events: stored as one delivery per event and authorised client once an import has
 * committed, then attempted by the process's queue (BullMQ) or by this service's poll of the
 * deliveries table. Storing or delivering never fails the import that caused it.
 */
@Injectable()
export class WebhooksService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(WebhooksService.name);
  private soon: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  private pollAgain = false;
  private stopped = false;
  /** Clients already warned about (in this process) for sending no Authorization header. */
  private readonly warnedNoSecret = new Set<string>();

  constructor(
    private readonly deliveries: WebhooksRepository,
    private readonly config: AppConfig,
    @Inject(WEBHOOK_QUEUE) private readonly queue: WebhookQueue,
    private readonly scheduler: SchedulerRegistry,
    private readonly secrets: SecretsService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.queue.delivers) return;
    if (this.queue.mode === 'queue') await this.queue.start((id) => this.attempt(id));
    addInterval(this.scheduler, WEBHOOK_POLL_JOB, this.config.WEBHOOK_POLL_INTERVAL_MS, () => this.wake());
    this.wake();
  }

  /** Stops polling and lets the attempts in progress finish before the database closes. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    removeInterval(this.scheduler, WEBHOOK_POLL_JOB);
    clearTimeout(this.soon);
    await this.polling;
  }

  /**
   * Stores an import's events, in the import's own transaction (an outbox: the import and its
   * events commit together, or neither does): its raised classes, newly achieved goals and quests
   * become deliveries to the clients the user authorised. Returns the new deliveries, for
   * schedule() once the transaction has committed. An event already stored (a rerun) is not stored again.
   */
  async storeImportEvents(tx: Queryable, doc: ImportEventSource): Promise<number[]> {
    const goals = newlyAchievedGoals(doc.goalInfo);
    const quests = newlyAchievedQuests(doc.questInfo);
    const targets =
      goals.length || quests.length
        ? await this.deliveries.targetGpts(
            goals.map((g) => g.goalID),
            quests.map((q) => q.questID),
            tx,
          )
        : { goals: new Map(), quests: new Map() };
    const events = importEvents(doc, {
      classOrder: (game, playtype, set) => findGpt(game, playtype)?.classes[set]?.values.map((v) => v.id),
      goalGpt: (id) => targets.goals.get(id),
      questGpt: (id) => targets.quests.get(id),
    });
    return this.store(doc.userID, events, tx);
  }

  /**
   * Stores the events about a user as deliveries to each client that issued the user an API key
   * and has a webhookUri (no other client), and hands them to the queue. An event whose key was
   * already stored for a client is not stored again. Returns the new deliveries' ids.
   */
  async publish(userID: number, events: WebhookEvent[]): Promise<number[]> {
    const ids = await this.store(userID, events);
    this.schedule(ids);
    return ids;
  }

  private async store(userID: number, events: WebhookEvent[], q?: Queryable): Promise<number[]> {
    if (!events.length) return [];
    const clients = await this.deliveries.authorisedClients(userID, q);
    if (!clients.length) return [];
    return this.deliveries.insertPending(
      clients.flatMap(({ clientID }) => events.map((e) => ({ clientID, userID, eventKey: e.key, eventType: e.payload.type, payload: e.payload }))),
      Date.now(),
      q,
    );
  }

  /** Hands stored deliveries to the queue (after their transaction committed). Never throws. */
  schedule(ids: number[]): void {
    if (!ids.length) return;
    if (this.queue.mode === 'polled') this.wake();
    else
      // Not awaited: while Redis is away BullMQ waits for it, and the import must not. Stored and
      // pending, a delivery not queued now is queued by a later sweep (requeueDue).
      void this.queue.schedule(ids).catch((err: Error) => this.logger.warn(`Webhook deliveries ${ids.join(', ')} are queued by a later sweep: ${err.message}`));
  }

  /**
   * One attempt at a delivery, recorded in its row: delivered on a 2xx; failed for good on a
   * refused address or after WEBHOOK_MAX_ATTEMPTS; otherwise due again after the backoff.
   */
  async attempt(deliveryID: number): Promise<AttemptOutcome> {
    const found = await this.deliveries.findForAttempt(deliveryID);
    if (!found || found.delivery.status !== 'pending') return 'settled';
    const { delivery, webhookUri, webhookSecret } = found;
    const startedAt = Date.now();
    const attempts = delivery.attempts + 1;
    let record: AttemptRecord;
    const bearer = webhookUri ? this.bearerFor(found) : null;
    if (!webhookUri) {
      record = {
        status: 'failed',
        nextAttemptAt: startedAt,
        lastStatusCode: null,
        lastError: 'The client no longer has a webhookUri.',
        lastUrl: null,
        deliveredAt: null,
      };
    } else if (bearer instanceof SecretDecryptError) {
      // A key missing from this process's configuration: retried, in case the operator restores it (never posted without the header Tachi's receivers check).
      const error = `The client secret could not be decrypted (${bearer.message})`;
      record =
        attempts >= this.config.WEBHOOK_MAX_ATTEMPTS
          ? { status: 'failed', nextAttemptAt: startedAt, lastStatusCode: null, lastError: error, lastUrl: null, deliveredAt: null }
          : {
              status: 'pending',
              nextAttemptAt: startedAt + retryDelayMs(this.config.WEBHOOK_RETRY_BASE_MS, attempts),
              lastStatusCode: null,
              lastError: error,
              lastUrl: null,
              deliveredAt: null,
            };
    } else {
      const body = JSON.stringify(delivery.payload);
      const headers = webhookHeaders(webhookSecret, body, { deliveryID, type: delivery.eventType }, startedAt, bearer);
      const result = await sendWebhook(webhookUri, body, headers, {
        allowPrivate: this.config.WEBHOOKS_ALLOW_PRIVATE,
        timeoutMs: this.config.WEBHOOK_TIMEOUT_MS,
      });
      const now = Date.now();
      const base = { lastStatusCode: result.statusCode, lastError: result.error, lastUrl: result.url };
      if (result.ok) record = { ...base, status: 'delivered', nextAttemptAt: now, deliveredAt: now };
      else if (result.permanent || attempts >= this.config.WEBHOOK_MAX_ATTEMPTS) record = { ...base, status: 'failed', nextAttemptAt: now, deliveredAt: null };
      else record = { ...base, status: 'pending', nextAttemptAt: now + retryDelayMs(this.config.WEBHOOK_RETRY_BASE_MS, attempts), deliveredAt: null };
    }
    const recorded = await this.deliveries.recordAttempt(deliveryID, delivery.attempts, startedAt, record);
    if (!recorded) return 'settled';
    if (record.status === 'pending') this.logger.warn(`Webhook delivery ${deliveryID} (attempt ${attempts}) failed and is retried: ${record.lastError}`);
    else if (record.status === 'failed') this.logger.warn(`Webhook delivery ${deliveryID} failed for good after ${attempts} attempt(s): ${record.lastError}`);
    return record.status === 'pending' ? 'retry' : record.status;
  }

  /**
   * The bearer token of a delivery: the webhook secret under API_PROFILE=spec; under tachi the
   * client secret, as Tachi's receivers expect, decrypted from its stored copy. A client whose
   * secret predates that copy gets none (warned once per process: reset-secret fixes it).
   */
  private bearerFor(found: DeliveryAttempt): string | null | SecretDecryptError {
    if (this.config.API_PROFILE !== 'tachi') return found.webhookSecret;
    const clientID = found.delivery.clientID;
    if (found.clientSecretEncrypted === null) {
      if (!this.warnedNoSecret.has(clientID)) {
        this.warnedNoSecret.add(clientID);
        this.logger.warn(
          `Client ${clientID}'s secret was made before client secrets were stored encrypted: its webhook deliveries carry no Authorization header until its owner resets it (POST /clients/${clientID}/reset-secret).`,
        );
      }
      return null;
    }
    try {
      return this.secrets.decrypt(found.clientSecretEncrypted, clientSecretContext(clientID));
    } catch (err) {
      if (err instanceof SecretDecryptError) return err;
      throw err;
    }
  }

  /** Starts a poll now, or right after the one in progress. */
  private wake(): void {
    if (this.stopped || !this.queue.delivers) return;
    if (this.polling) {
      this.pollAgain = true;
      return;
    }
    this.polling = this.poll()
      .catch((err: Error) => this.logger.error(`Webhook poll failed: ${err.message}`))
      .finally(() => {
        this.polling = undefined;
        if (this.pollAgain) {
          this.pollAgain = false;
          this.wake();
        }
      });
  }

  /**
   * Queue mode: queues the due pending deliveries, which are those stored while no job could be
   * added (by the CLI, while Redis was down, or by a process that stopped in between); a job
   * already queued is not added twice.
   */
  private async requeueDue(): Promise<void> {
    const ids = await this.deliveries.dueIDs(Date.now(), 1000);
    if (ids.length) await this.queue.schedule(ids);
  }

  /** Polled mode: attempts every due delivery, then sets a timer for the next one due before the next regular poll. */
  private async poll(): Promise<void> {
    if (this.queue.mode === 'queue') return this.requeueDue();
    // Claimed deliveries are not taken again (by this or another process) until the lease has passed: an attempt lasts at most the timeout.
    const leaseMs = this.config.WEBHOOK_TIMEOUT_MS + 60_000;
    while (!this.stopped) {
      const ids = await this.deliveries.claimDue(Date.now(), POLL_BATCH, leaseMs);
      if (!ids.length) break;
      await Promise.all(ids.map((id) => this.attempt(id).catch((err: Error) => this.logger.error(`Webhook delivery ${id}: ${err.message}`))));
    }
    if (this.stopped) return;
    const next = await this.deliveries.nextDue();
    clearTimeout(this.soon);
    if (next !== undefined && next - Date.now() < this.config.WEBHOOK_POLL_INTERVAL_MS) {
      this.soon = setTimeout(() => this.wake(), Math.max(0, next - Date.now()));
      this.soon.unref();
    }
  }
}
