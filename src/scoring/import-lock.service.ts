import { Injectable } from '@nestjs/common';
import { Database } from '../database/database.js';
import { failAbandonedInlineImports, releaseIfHeldBy, withUserLock, type HeldUserLock } from './import-lock.js';

/** The per-user score-writing lock of import-lock.ts, on the application's database. */
@Injectable()
export class ImportLockService {
  constructor(private readonly database: Database) {}

  /** Runs fn holding the user's lock; throws UserBusyError while another owner holds it. */
  withUserLock<T>(userID: number, owner: string, fn: (lock: HeldUserLock) => Promise<T>): Promise<T> {
    return withUserLock(this.database, userID, owner, fn);
  }

  /** Frees the user's lock if `owner` holds it (an owner whose work is known to be over). */
  releaseIfHeldBy(userID: number, owner: string): Promise<void> {
    return releaseIfHeldBy(this.database, userID, owner);
  }

  /** Fails the inline imports whose process stopped (every user's without userID); returns how many. */
  failAbandonedInlineImports(userID?: number): Promise<number> {
    return failAbandonedInlineImports(this.database, userID);
  }

  /**
   * At the start of a process: fails every inline import a stopped process left ongoing. On the
   * embedded database (its data directory locked by this process) this process is the only one,
   * so every lock left behind is a dead process's, even one whose heartbeat is seconds old; on
   * PostgreSQL, other live processes may hold locks, so only stale ones count.
   */
  failImportsLeftByStoppedProcesses(): Promise<number> {
    return failAbandonedInlineImports(this.database, undefined, { soleProcess: this.database.exclusive });
  }
}
