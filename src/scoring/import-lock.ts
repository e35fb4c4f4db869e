import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { Database, Queryable } from '../database/database.js';
import { importLocks, imports } from '../database/schema.js';

export const LOCK_HEARTBEAT_MS = 5_000;
/** A lock not refreshed for this long belongs to a process that died. */
export const LOCK_STALE_MS = 30_000;

export class UserBusyError extends Error {
  constructor() {
    super('This user already has an import (or an orphan retry or revert) in progress.');
  }
}

/**
 * Marks failed the inline imports (status ongoing, no stored input: they ran in a request) whose
 * process has stopped: no live lock is held under their id. Nothing of them was saved (an import
 * is one transaction), and their poll would otherwise answer "ongoing" forever. A queued import is
 * not concerned: its job runs again. Without userID, every user's (at startup).
 *
 * `soleProcess`: the caller is the only process on this database and runs no import yet (the
 * start of a process on the embedded database, which it holds exclusively). Every lock then
 * belongs to a process that died, however fresh its heartbeat (a `kill -9` and a quick restart):
 * they are all released, and every ongoing inline import is failed.
 */
export async function failAbandonedInlineImports(database: Database, userID?: number, options: { soleProcess?: boolean } = {}): Promise<number> {
  const now = Date.now();
  if (options.soleProcess) await database.db.delete(importLocks);
  const failed = await database.db
    .update(imports)
    .set({
      status: 'failed',
      progress: null,
      failure: { statusCode: 500, message: 'This import stopped before it finished (its server process ended). Nothing from it was saved; send it again.' },
      timeFinished: now,
    })
    .where(
      and(
        userID === undefined ? undefined : eq(imports.userID, userID),
        isNull(imports.timeFinished),
        eq(imports.status, 'ongoing'),
        isNull(imports.input),
        sql`NOT EXISTS (SELECT 1 FROM ${importLocks} l WHERE l.owner = ${imports.importID} AND l.heartbeat >= ${now - LOCK_STALE_MS})`,
      ),
    )
    .returning({ importID: imports.importID });
  return failed.length;
}

/** Frees the user's lock if `owner` holds it, whatever its heartbeat: for an owner whose work is known to be over. */
export async function releaseIfHeldBy(database: Database, userID: number, owner: string): Promise<void> {
  await database.db.delete(importLocks).where(and(eq(importLocks.userID, userID), eq(importLocks.owner, owner)));
}

/** The held lock, as withUserLock hands it to its callback. */
export interface HeldUserLock {
  /**
   * Deletes the lock inside the caller's transaction, so that its commit releases it (one statement
   * and one commit fewer than releasing it afterwards). Call it last in the callback's one write
   * transaction: once the callback has resolved, the lock counts as released.
   */
  releaseIn(tx: Queryable): Promise<void>;
  /** The same release as a statement for the caller to run in its transaction (a writeTogether part's body). */
  releaseStatement(): SQL;
}

/**
 * The per-user score-writing lock, shared by every process through the database. Held from the
 * start of an import until its transaction has committed or failed, with a heartbeat so that a
 * crashed holder's lock is taken over rather than stuck (and the inline import it ran, if any,
 * marked failed).
 */
export async function withUserLock<T>(database: Database, userID: number, owner: string, fn: (lock: HeldUserLock) => Promise<T>): Promise<T> {
  const now = Date.now();
  const acquired = await database.db
    .insert(importLocks)
    .values({ userID, owner, heartbeat: now })
    .onConflictDoUpdate({
      target: importLocks.userID,
      set: { owner, heartbeat: now },
      // Take over only a stale lock, or one this owner already holds (a retried job).
      setWhere: sql`${importLocks.heartbeat} < ${now - LOCK_STALE_MS} OR ${importLocks.owner} = ${owner}`,
    })
    // xmax is 0 on a row this statement inserted, and set on one it took over.
    .returning({ inserted: sql<boolean>`(xmax = 0)` });
  if (acquired.length === 0) throw new UserBusyError();
  if (!acquired[0].inserted) await failAbandonedInlineImports(database, userID);

  const mine = and(eq(importLocks.userID, userID), eq(importLocks.owner, owner));
  const unlock = () => database.db.delete(importLocks).where(mine);
  const timer = setInterval(() => {
    void database.db
      .update(importLocks)
      .set({ heartbeat: Date.now() })
      .where(mine)
      .catch(() => undefined);
  }, LOCK_HEARTBEAT_MS);
  timer.unref();
  let releasedInTransaction = false;
  let succeeded = false;
  try {
    const result = await fn({
      releaseIn: async (tx) => {
        await tx.delete(importLocks).where(mine);
        releasedInTransaction = true;
      },
      releaseStatement: () => {
        releasedInTransaction = true;
        return unlock().getSQL();
      },
    });
    succeeded = true;
    return result;
  } finally {
    clearInterval(timer);
    // A failed callback's transaction rolled back, and its release with it.
    if (!(succeeded && releasedInTransaction)) await release(unlock, succeeded);
  }
}

/** How often, and how long apart, a release that failed (the database unreachable) is tried again in the background. */
const RELEASE_RETRIES = 12;
const RELEASE_RETRY_MS = 2_500;

/**
 * Deletes the lock after the callback. When the database does not answer (the reason the callback
 * failed, usually), the callback's own error is what the caller sees, not the release's, and the
 * release is tried again in the background until the database is back: the player's next import
 * is not refused for LOCK_STALE_MS. (A success whose release fails throws: its caller must know.)
 */
async function release(unlock: () => Promise<unknown>, succeeded: boolean): Promise<void> {
  try {
    await unlock();
  } catch (err) {
    if (succeeded) throw err;
    void (async () => {
      for (let i = 0; i < RELEASE_RETRIES; i++) {
        await new Promise((resolve) => setTimeout(resolve, RELEASE_RETRY_MS).unref());
        // Still unreachable: the next try, then the heartbeat's staleness frees it.
        if (
          await unlock().then(
            () => true,
            () => false,
          )
        )
          return;
      }
    })();
  }
}
