import { Injectable } from '@nestjs/common';
import { and, asc, desc, eq, inArray, isNotNull, lt, lte, sql } from 'drizzle-orm';
import { Database, queryRows, type Queryable } from '../database/database.js';
import { apiClients, apiKeys, goals, quests, webhookDeliveries, type WebhookDeliveryRow } from '../database/schema.js';

export type NewWebhookDelivery = Pick<WebhookDeliveryRow, 'clientID' | 'userID' | 'eventKey' | 'eventType' | 'payload'>;

/** A delivery with what an attempt needs of its client (read at the attempt, so a changed URL or secret applies). */
export interface DeliveryAttempt {
  delivery: WebhookDeliveryRow;
  webhookUri: string | null;
  webhookSecret: string;
  /** The client secret encrypted with SECRETS_KEY (null: made before it was stored, or no key configured). */
  clientSecretEncrypted: string | null;
}

export type AttemptRecord = Pick<WebhookDeliveryRow, 'status' | 'nextAttemptAt' | 'lastStatusCode' | 'lastError' | 'lastUrl' | 'deliveredAt'>;

/** A game and playtype of a goal or quest. */
export interface TargetGpt {
  game: string;
  playtype: string;
}

@Injectable()
export class WebhooksRepository {
  constructor(private readonly database: Database) {}

  /** The clients with a webhookUri that issued the user an API key (the clients the user authorised), each once. */
  authorisedClients(userID: number, q: Queryable = this.database.db): Promise<{ clientID: string }[]> {
    return q
      .selectDistinct({ clientID: apiClients.clientID })
      .from(apiKeys)
      .innerJoin(apiClients, eq(apiClients.clientID, apiKeys.fromAPIClient))
      .where(and(eq(apiKeys.userID, userID), isNotNull(apiClients.webhookUri)))
      .orderBy(asc(apiClients.clientID));
  }

  /** The game and playtype of each of these goals and quests that exists. */
  async targetGpts(
    goalIDs: string[],
    questIDs: string[],
    q: Queryable = this.database.db,
  ): Promise<{ goals: Map<string, TargetGpt>; quests: Map<string, TargetGpt> }> {
    const goalRows = goalIDs.length
      ? await q.select({ id: goals.goalID, game: goals.game, playtype: goals.playtype }).from(goals).where(inArray(goals.goalID, goalIDs))
      : [];
    const questRows = questIDs.length
      ? await q.select({ id: quests.questID, game: quests.game, playtype: quests.playtype }).from(quests).where(inArray(quests.questID, questIDs))
      : [];
    const toMap = (rows: { id: string; game: string; playtype: string }[]) => new Map(rows.map((r) => [r.id, { game: r.game, playtype: r.playtype }]));
    return { goals: toMap(goalRows), quests: toMap(questRows) };
  }

  /**
   * Inserts the deliveries, due now, in one statement. An event already enqueued for a client
   * (same event key) is skipped. Returns the ids of the rows inserted.
   */
  async insertPending(rows: NewWebhookDelivery[], now: number, q: Queryable = this.database.db): Promise<number[]> {
    if (!rows.length) return [];
    const inserted = await q
      .insert(webhookDeliveries)
      .values(rows.map((r) => ({ ...r, status: 'pending' as const, attempts: 0, nextAttemptAt: now, createdAt: now })))
      .onConflictDoNothing({ target: [webhookDeliveries.clientID, webhookDeliveries.eventKey] })
      .returning({ id: webhookDeliveries.deliveryID });
    return inserted.map((r) => r.id);
  }

  /**
   * Claims up to `limit` pending deliveries that are due: their next attempt moves `leaseMs`
   * ahead, so another poller (or this one, after a crash) takes them only once that lease has
   * passed. SKIP LOCKED lets several processes poll at once.
   */
  async claimDue(now: number, limit: number, leaseMs: number): Promise<number[]> {
    const rows = await queryRows<{ delivery_id: string | number }>(
      this.database.db,
      sql`
      UPDATE ${webhookDeliveries} SET next_attempt_at = ${now + leaseMs}
      WHERE delivery_id IN (
        SELECT delivery_id FROM ${webhookDeliveries}
        WHERE status = 'pending' AND next_attempt_at <= ${now}
        ORDER BY next_attempt_at
        LIMIT ${limit}
        FOR UPDATE SKIP LOCKED
      )
      RETURNING delivery_id`,
    );
    return rows.map((r) => Number(r.delivery_id));
  }

  /** The earliest next attempt of a pending delivery, if any. */
  async nextDue(): Promise<number | undefined> {
    const [row] = await this.database.db
      .select({ at: sql<string | number | null>`min(${webhookDeliveries.nextAttemptAt})` })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.status, 'pending'));
    return row?.at === null || row?.at === undefined ? undefined : Number(row.at);
  }

  /** The ids of pending deliveries due by `now`, oldest due first (the queue mode queues them again; a job already queued is not added twice). */
  async dueIDs(now: number, limit: number): Promise<number[]> {
    const rows = await this.database.db
      .select({ id: webhookDeliveries.deliveryID })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.status, 'pending'), lte(webhookDeliveries.nextAttemptAt, now)))
      .orderBy(asc(webhookDeliveries.nextAttemptAt))
      .limit(limit);
    return rows.map((r) => r.id);
  }

  async findForAttempt(deliveryID: number): Promise<DeliveryAttempt | undefined> {
    const [row] = await this.database.db
      .select({
        delivery: webhookDeliveries,
        webhookUri: apiClients.webhookUri,
        webhookSecret: apiClients.webhookSecret,
        clientSecretEncrypted: apiClients.clientSecretEncrypted,
      })
      .from(webhookDeliveries)
      .innerJoin(apiClients, eq(apiClients.clientID, webhookDeliveries.clientID))
      .where(eq(webhookDeliveries.deliveryID, deliveryID))
      .limit(1);
    return row;
  }

  /**
   * Records an attempt, counting it, unless the delivery has already been settled (another
   * process's attempt finished first): then nothing changes and false is returned.
   */
  async recordAttempt(deliveryID: number, attemptsBefore: number, at: number, record: AttemptRecord): Promise<boolean> {
    const updated = await this.database.db
      .update(webhookDeliveries)
      .set({ ...record, attempts: attemptsBefore + 1, lastAttemptAt: at })
      .where(and(eq(webhookDeliveries.deliveryID, deliveryID), eq(webhookDeliveries.status, 'pending'), eq(webhookDeliveries.attempts, attemptsBefore)))
      .returning({ id: webhookDeliveries.deliveryID });
    return updated.length > 0;
  }

  /** A client's deliveries, newest first; `before` pages on to older ones. */
  listForClient(clientID: string, limit: number, before?: number): Promise<WebhookDeliveryRow[]> {
    return this.database.db
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.clientID, clientID), before === undefined ? undefined : lt(webhookDeliveries.deliveryID, before)))
      .orderBy(desc(webhookDeliveries.deliveryID))
      .limit(limit);
  }
}
