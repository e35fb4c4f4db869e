import { Injectable } from '@nestjs/common';
import { Database } from '../database/database.js';
import type { UserRow } from '../database/schema.js';
import { EmailCodesRepository } from './email-codes.repository.js';
import { InvitesRepository } from './invites.repository.js';
import { transactionOrRollBack } from './transaction.js';
import { UsersRepository, type NewUser } from './users.repository.js';

/** The account changes that span users, credentials, email codes and invites, each in one transaction. */
@Injectable()
export class AccountsRepository {
  constructor(
    private readonly database: Database,
    private readonly users: UsersRepository,
    private readonly codes: EmailCodesRepository,
    private readonly invites: InvitesRepository,
  ) {}

  /**
   * Creates the user, its credentials and a verify-email code. With an invite code the invite is
   * used up too; undefined means the code was not valid, and nothing was created.
   */
  register(user: NewUser, inviteCode: string | undefined): Promise<{ user: UserRow; verifyCode: string } | undefined> {
    return transactionOrRollBack(this.database, async (tx, rollBack: (outcome: undefined) => never) => {
      const created = await this.users.insert(user, tx);
      if (inviteCode !== undefined && !(await this.invites.consume(inviteCode, created.id, tx))) rollBack(undefined);
      return { user: created, verifyCode: await this.codes.issue(created.id, 'verify-email', tx) };
    });
  }

  /** Renames the user unless the cooldown forbids it (false); see UsersRepository.changeUsername. */
  changeUsername(userID: number, username: string, now: number, changedBefore: number): Promise<boolean> {
    return this.database.transaction((tx) => this.users.changeUsername(userID, username, now, changedBefore, tx));
  }

  /** Sets a new, unverified, email address and issues its verify-email code (earlier codes stop working). */
  changeEmail(userID: number, email: string): Promise<string> {
    return this.database.transaction(async (tx) => {
      await this.users.changeEmail(userID, email, tx);
      return this.codes.issue(userID, 'verify-email', tx);
    });
  }

  /** Uses a verify-email code; false when it is invalid or expired, and then nothing changes. */
  verifyEmailWithCode(code: string): Promise<boolean> {
    return transactionOrRollBack(this.database, async (tx, rollBack: (outcome: false) => never) => {
      const userID = await this.codes.consume(code, 'verify-email', tx);
      if (userID === undefined) rollBack(false);
      await this.users.markEmailVerified(userID, tx);
      return true;
    });
  }

  /** Uses a reset-password code to set the password; false when it is invalid or expired, and then nothing changes. */
  resetPasswordWithCode(code: string, passwordHash: string): Promise<boolean> {
    return transactionOrRollBack(this.database, async (tx, rollBack: (outcome: false) => never) => {
      const userID = await this.codes.consume(code, 'reset-password', tx);
      if (userID === undefined) rollBack(false);
      await this.users.setPassword(userID, passwordHash, tx);
      return true;
    });
  }
}
