import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { randomHex } from '../../common/crypto.js';
import { Database } from '../../database/database.js';
import { UsersRepository } from '../../repositories/users.repository.js';
import { StorageService } from '../../storage/storage.service.js';
import { deleteAccountRows } from './account-removal.js';
import { ImportLockService } from '../import-lock.service.js';

/**
 * Login sessions kept outside the database (Redis, with REDIS_URL): deleting an account ends them.
 * Those in the database's login_sessions table go in the deletion's own transaction.
 */
export interface ExternalLoginSessions {
  revokeUser(userID: number): Promise<unknown>;
}
export const EXTERNAL_LOGIN_SESSIONS = Symbol('EXTERNAL_LOGIN_SESSIONS');

/** Account deletion, for the user's own route, the admin's and the CLI's. */
@Injectable()
export class AccountRemovalService {
  constructor(
    private readonly database: Database,
    private readonly locks: ImportLockService,
    private readonly storage: StorageService,
    private readonly users: UsersRepository,
    @Optional() @Inject(EXTERNAL_LOGIN_SESSIONS) private readonly externalSessions: ExternalLoginSessions | null = null,
  ) {}

  private readonly log = new Logger(AccountRemovalService.name);

  /**
   * Deletes the user and everything theirs in one transaction, holding their import lock (throws
   * UserBusyError while an import runs), then their stored images and their login sessions kept in
   * Redis. False when the user does not exist.
   */
  async deleteAccount(userID: number): Promise<boolean> {
    // The lock row references the user: take it only for one that exists.
    if (!(await this.users.findById(userID))) return false;
    const imageKeys = await this.locks.withUserLock(userID, `delete-account:${randomHex(8)}`, () =>
      this.database.transaction((tx) => deleteAccountRows(tx, userID)),
    );
    if (imageKeys === null) return false;
    for (const key of imageKeys) await this.storage.delete(key);
    // The account is gone whatever happens here: a session Redis keeps past an outage resolves to no
    // user (a guest) and expires within 30 days.
    await this.externalSessions?.revokeUser(userID).catch((err: unknown) => {
      this.log.warn(`The login sessions of deleted user ${userID} could not be removed from Redis: ${String(err)}`);
    });
    return true;
  }
}
