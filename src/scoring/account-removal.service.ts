import { Injectable } from '@nestjs/common';
import { randomHex } from '../common/crypto.js';
import { Database } from '../database/database.js';
import { UsersRepository } from '../repositories/users.repository.js';
import { StorageService } from '../storage/storage.service.js';
import { deleteAccountRows } from './account-removal.js';
import { ImportLockService } from './import-lock.service.js';

/** Account deletion, for the user's own route and the admin's. */
@Injectable()
export class AccountRemovalService {
  constructor(
    private readonly database: Database,
    private readonly locks: ImportLockService,
    private readonly storage: StorageService,
    private readonly users: UsersRepository,
  ) {}

  /**
   * Deletes the user and everything theirs in one transaction, holding their import lock (throws
   * UserBusyError while an import runs), then their stored images. False when the user does not exist.
   */
  async deleteAccount(userID: number): Promise<boolean> {
    // The lock row references the user: take it only for one that exists.
    if (!(await this.users.findById(userID))) return false;
    const imageKeys = await this.locks.withUserLock(userID, `delete-account:${randomHex(8)}`, () =>
      this.database.transaction((tx) => deleteAccountRows(tx, userID)),
    );
    if (imageKeys === null) return false;
    for (const key of imageKeys) await this.storage.delete(key);
    return true;
  }
}
