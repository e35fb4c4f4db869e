import { BadRequestException, ConflictException, ForbiddenException, Injectable, Logger, UnauthorizedException } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { AppConfig } from '../config/app-config.js';
import { BANNED_AUTH_LEVEL, type UserRow } from '../http/auth/auth-context.js';
import type { ApiRequest } from '../http/request.js';
import { RateLimitService } from '../http/rate-limit/rate-limit.service.js';
import { CaptchaService } from './captcha.service.js';
import { MailService } from '../mail/mail.service.js';
import { AccountsRepository } from '../repositories/accounts.repository.js';
import { UsersRepository } from '../repositories/users.repository.js';
import type { RegisterDto } from './dto/auth.dto.js';
import { EMAIL_CODE_LIFETIME_MS, EmailCodesRepository } from '../repositories/email-codes.repository.js';
import { hashPassword, verifyPassword } from './password.js';

function uniqueViolation(err: unknown): string | undefined {
  const e = (err as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } }) ?? {};
  const src = e.code === '23505' ? e : e.cause?.code === '23505' ? e.cause : undefined;
  return src ? (src.constraint ?? 'unique') : undefined;
}

const hours = (ms: number) => `${ms / 3_600_000} hour${ms === 3_600_000 ? '' : 's'}`;

@Injectable()
export class AuthService {
  private readonly logger = new Logger(AuthService.name);

  constructor(
    private readonly config: AppConfig,
    private readonly users: UsersRepository,
    private readonly accounts: AccountsRepository,
    private readonly codes: EmailCodesRepository,
    private readonly mail: MailService,
    private readonly captcha: CaptchaService,
    private readonly moduleRef: ModuleRef,
  ) {}

  /**
   * A login outside POST /auth/login (the OAuth2 authorization page), under the same rules: the
   * captcha, the per-account count of failed passwords (the route carries @RateLimit('login') for
   * the per-IP and per-account checks), the same 401 for an unknown user and a wrong password, and
   * 403 for a banned account. The caller starts the session.
   */
  async passwordLogin(req: ApiRequest, username: string, password: string, captcha: string | undefined): Promise<UserRow> {
    await this.captcha.verify(captcha, req.ip);
    const user = await this.validateCredentials(username, password);
    if (!user) {
      await this.limits().recordFailure('login', req);
      throw new UnauthorizedException('Invalid username or password.');
    }
    await this.limits().recordSuccess('login', req);
    if (user.authLevel <= BANNED_AUTH_LEVEL) throw new ForbiddenException('This account is banned.');
    return user;
  }

  /** Provided by the HTTP application's root module; fetched as LocalAuthGuard does. */
  private limits(): RateLimitService {
    return this.moduleRef.get(RateLimitService, { strict: false });
  }

  /** passport-local's check. Unknown user and wrong password get the same answer and take the same time. */
  async validateCredentials(username: string, password: string): Promise<UserRow | undefined> {
    const user = await this.users.findByUsername(username);
    const credentials = user ? await this.users.findCredentials(user.id) : undefined;
    const ok = await verifyPassword(credentials?.passwordHash, password);
    return ok ? user : undefined;
  }

  async register(dto: RegisterDto): Promise<UserRow> {
    if (this.config.INVITE_ONLY && !dto.inviteCode) throw new BadRequestException('This server is invite-only: inviteCode is required.');
    if (await this.users.findByUsername(dto.username)) throw new ConflictException('This username is already in use.');
    if (await this.users.findCredentialsByEmail(dto.email)) throw new ConflictException('This email is already in use.');
    const passwordHash = await hashPassword(dto['!password']);
    let registered: { user: UserRow; verifyCode: string } | undefined;
    try {
      registered = await this.accounts.register(
        { username: dto.username, email: dto.email, passwordHash },
        this.config.INVITE_ONLY ? dto.inviteCode : undefined,
      );
    } catch (err) {
      const constraint = uniqueViolation(err);
      if (constraint?.includes('email')) throw new ConflictException('This email is already in use.');
      if (constraint) throw new ConflictException('This username is already in use.');
      throw err;
    }
    if (!registered) throw new BadRequestException('This invite code is not valid or has already been used.');
    const { user, verifyCode } = registered;
    this.background(this.sendVerifyMail(dto.email, user.username, verifyCode), 'send the verification mail');
    return user;
  }

  async verifyEmail(code: string): Promise<void> {
    if (!(await this.accounts.verifyEmailWithCode(code))) throw new BadRequestException('This email verification code is invalid or has expired.');
  }

  async resendVerifyEmail(user: UserRow): Promise<void> {
    const credentials = await this.users.findCredentials(user.id);
    if (!credentials) throw new BadRequestException('This account has no email address.');
    if (credentials.emailVerified) throw new ConflictException('Your email address is already verified.');
    const code = await this.codes.issue(user.id, 'verify-email');
    await this.sendVerifyMail(credentials.email, user.username, code);
  }

  /**
   * Always succeeds from the caller's view. The lookup, the code and the mail all happen after the
   * answer, so neither its timing nor an error reveals whether the email belongs to an account.
   */
  forgotPassword(email: string, requesterIp: string | undefined): void {
    this.background(this.sendResetCode(email, requesterIp), 'send a password reset code');
  }

  private async sendResetCode(email: string, requesterIp: string | undefined): Promise<void> {
    const credentials = await this.users.findCredentialsByEmail(email);
    if (!credentials) return;
    const user = await this.users.findById(credentials.userID);
    const code = await this.codes.issue(credentials.userID, 'reset-password');
    const link = `${this.config.PUBLIC_URL.replace(/\/$/, '')}/reset-password?code=${code}`;
    await this.mail.send({
      to: credentials.email,
      subject: 'Reset your password',
      text:
        `Someone (IP ${requesterIp ?? 'unknown'}) asked to reset the password of ${user?.username ?? 'your account'}.\n\n` +
        `Reset it here: ${link}\nor send this code to POST /api/v1/auth/reset-password: ${code}\n\n` +
        `The code works once and expires in ${hours(EMAIL_CODE_LIFETIME_MS['reset-password'])}. If you did not ask for this, ignore this mail.\n`,
    });
  }

  /** Sets the new password and ends every existing session of the account. */
  async resetPassword(code: string, password: string): Promise<void> {
    const passwordHash = await hashPassword(password);
    if (!(await this.accounts.resetPasswordWithCode(code, passwordHash))) throw new BadRequestException('This password reset code is invalid or has expired.');
  }

  /** Mails a verify-email code to `to` (register, resend, and a change of email address). */
  sendVerifyMail(to: string, username: string, code: string): Promise<void> {
    const link = `${this.config.PUBLIC_URL.replace(/\/$/, '')}/verify-email?code=${code}`;
    return this.mail.send({
      to,
      subject: 'Verify your email address',
      text:
        `Welcome, ${username}!\n\nVerify your email address here: ${link}\n` +
        `or send this code to POST /api/v1/auth/verify-email: ${code}\n\nThe code works once and expires in ${hours(EMAIL_CODE_LIFETIME_MS['verify-email'])}.\n`,
    });
  }

  /** Work the answer does not wait for: a failure is logged, never thrown. */
  private background(work: Promise<void>, what: string) {
    work.catch((err: unknown) => this.logger.error(`Could not ${what}: ${err instanceof Error ? err.message : String(err)}`));
  }
}
