import { BadRequestException, ConflictException, ForbiddenException, Injectable, Logger } from '@nestjs/common';
import { AuthService } from '../auth/auth.service.js';
import { hashPassword, verifyPassword } from '../auth/password.js';
import type { UserRow } from '../http/auth/auth-context.js';
import { MailService } from '../mail/mail.service.js';
import {
  toEmailDocument,
  toEmailVerifiedDocument,
  toUserSettingsDocument,
  toUsernameChangeDocument,
  type EmailDocument,
  type EmailVerifiedDocument,
  type UserSettingsDocument,
  type UsernameChangeDocument,
} from '../presenters/account.presenter.js';
import { AccountsRepository } from '../repositories/accounts.repository.js';
import { SocialRepository } from '../repositories/social.repository.js';
import { UserSettingsRepository, type UserPreferences } from '../repositories/user-settings.repository.js';
import { UsersRepository } from '../repositories/users.repository.js';
import type { ChangeEmailDto, ChangePasswordDto, ChangeUsernameDto, PatchUserSettingsDto } from './dto/account-settings.dto.js';

/** How long after a username change the next one may be made: 180 days (Tachi's six months). */
export const USERNAME_CHANGE_COOLDOWN_MS = 180 * 24 * 60 * 60 * 1000;

const PREFERENCE_KEYS = [
  'invisible',
  'developerMode',
  'advancedMode',
  'contentiousContent',
  'deletableScores',
] as const satisfies readonly (keyof UserPreferences)[];

function uniqueViolation(err: unknown): boolean {
  const e = (err as { code?: string; cause?: { code?: string } }) ?? {};
  return e.code === '23505' || e.cause?.code === '23505';
}

/** A user's site-wide settings and the changes of their credentials (password, username, email). */
@Injectable()
export class AccountSettingsService {
  private readonly logger = new Logger(AccountSettingsService.name);

  constructor(
    private readonly users: UsersRepository,
    private readonly accounts: AccountsRepository,
    private readonly settings: UserSettingsRepository,
    private readonly social: SocialRepository,
    private readonly auth: AuthService,
    private readonly mail: MailService,
  ) {}

  async getSettings(user: UserRow): Promise<UserSettingsDocument> {
    const [preferences, following] = await Promise.all([this.settings.find(user.id), this.social.followingIDs(user.id)]);
    return toUserSettingsDocument({ userID: user.id, preferences, following });
  }

  async patchSettings(user: UserRow, dto: PatchUserSettingsDto): Promise<UserSettingsDocument> {
    const changes: Partial<UserPreferences> = {};
    for (const key of PREFERENCE_KEYS) if (dto[key] !== undefined) changes[key] = dto[key];
    if (Object.keys(changes).length === 0) throw new BadRequestException('Nothing was provided to change!');
    const preferences = await this.settings.save(user.id, changes);
    return toUserSettingsDocument({ userID: user.id, preferences, following: await this.social.followingIDs(user.id) });
  }

  /**
   * Sets a new password once the current one is confirmed (403 when wrong), ends every other
   * session of the account, and mails the account's address. Returns the moment of the change: the
   * caller's own session, re-stamped with it, stays signed in.
   */
  async changePassword(user: UserRow, dto: ChangePasswordDto): Promise<number> {
    const credentials = await this.checkPassword(user, dto['!oldPassword']);
    const now = Date.now();
    await this.users.changePassword(user.id, await hashPassword(dto['!password']), now);
    this.background(
      this.mail.send({
        to: credentials.email,
        subject: 'Your password was changed',
        text:
          `The password of ${user.username} was changed, and every other signed-in session of the account was signed out.\n\n` +
          `If you did not change it, reset it now with POST /api/v1/auth/forgot-password, and check the account's API tokens.\n`,
      }),
      'mail the password change notice',
    );
    return now;
  }

  /** Renames the user: the password confirmed (403), the username free (409), at most once every 180 days (409, saying when). */
  async changeUsername(user: UserRow, dto: ChangeUsernameDto): Promise<void> {
    const credentials = await this.checkPassword(user, dto['!password']);
    if (dto.username === user.username) throw new BadRequestException('This is already your username.');
    const taken = await this.users.findByUsername(dto.username);
    if (taken && taken.id !== user.id) throw new ConflictException('This username is already in use.');
    const now = Date.now();
    let renamed: boolean;
    try {
      renamed = await this.accounts.changeUsername(user.id, dto.username, now, now - USERNAME_CHANGE_COOLDOWN_MS);
    } catch (err) {
      if (uniqueViolation(err)) throw new ConflictException('This username is already in use.');
      throw err;
    }
    if (!renamed) {
      const next = (credentials.usernameChangedAt ?? now) + USERNAME_CHANGE_COOLDOWN_MS;
      throw new ConflictException(
        `You can change your username once every 180 days; the next change is possible from ${new Date(next).toISOString()} (${next} in Unix ms).`,
      );
    }
    this.background(
      this.mail.send({
        to: credentials.email,
        subject: 'Your username was changed',
        text: `Your username was changed from ${user.username} to ${dto.username}. The next change is possible in 180 days.\n`,
      }),
      'mail the username change notice',
    );
  }

  async lastUsernameChange(user: UserRow): Promise<UsernameChangeDocument> {
    const credentials = await this.credentialsOf(user);
    const lastChange = credentials.usernameChangedAt;
    return toUsernameChangeDocument({ lastChange, nextAvailable: lastChange === null ? null : lastChange + USERNAME_CHANGE_COOLDOWN_MS, now: Date.now() });
  }

  async email(user: UserRow): Promise<EmailDocument> {
    return toEmailDocument((await this.credentialsOf(user)).email);
  }

  async isEmailVerified(user: UserRow): Promise<EmailVerifiedDocument> {
    return toEmailVerifiedDocument((await this.credentialsOf(user)).emailVerified);
  }

  /**
   * Changes the address once the password is confirmed (403), unless another account has it (409).
   * The new address is unverified: a verification code goes to it, and a notice to the old one.
   */
  async changeEmail(user: UserRow, dto: ChangeEmailDto): Promise<void> {
    const credentials = await this.checkPassword(user, dto['!password']);
    if (dto.email.toLowerCase() === credentials.emailLowercase) throw new BadRequestException('This is already your email address.');
    if (await this.users.findCredentialsByEmail(dto.email)) throw new ConflictException('This email is already in use.');
    let code: string;
    try {
      code = await this.accounts.changeEmail(user.id, dto.email);
    } catch (err) {
      if (uniqueViolation(err)) throw new ConflictException('This email is already in use.');
      throw err;
    }
    this.background(this.auth.sendVerifyMail(dto.email, user.username, code), 'mail the verification code of a new address');
    this.background(
      this.mail.send({
        to: credentials.email,
        subject: 'Your email address was changed',
        text: `The email address of ${user.username} was changed from this address to ${dto.email}.\n\nIf you did not change it, contact the administrators of this server.\n`,
      }),
      'mail the email change notice',
    );
  }

  private async credentialsOf(user: UserRow) {
    const credentials = await this.users.findCredentials(user.id);
    if (!credentials) throw new BadRequestException('This account has no credentials.');
    return credentials;
  }

  /** The account's credentials, once `password` is confirmed as its password (403 when wrong). */
  private async checkPassword(user: UserRow, password: string) {
    const credentials = await this.credentialsOf(user);
    if (!(await verifyPassword(credentials.passwordHash, password))) throw new ForbiddenException('The password is wrong.');
    return credentials;
  }

  /** Mail the answer does not wait for: a failure is logged, never thrown. */
  private background(work: Promise<void>, what: string) {
    work.catch((err: unknown) => this.logger.error(`Could not ${what}: ${err instanceof Error ? err.message : String(err)}`));
  }
}
