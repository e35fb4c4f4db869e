import { ForbiddenException, Injectable, UnauthorizedException } from '@nestjs/common';
import { sha256Hex } from '../../common/crypto.js';
import { ChangeFeed, FeedMemo, scope } from '../../database/change-feed.js';
import { ApiKeysRepository } from '../../repositories/api-keys.repository.js';
import { UsersRepository } from '../../repositories/users.repository.js';
import { BANNED_AUTH_LEVEL, GUEST, sessionAuth, type AuthContext, type UserRow } from './auth-context.js';

const BEARER = /^Bearer ([A-Za-z0-9._~+/=-]+)$/;
/** lastSeen is written at most this often per user, so reads do not turn into writes. */
const LAST_SEEN_RESOLUTION_MS = 60_000;

/** How many `:userID` resolutions are remembered. */
const REMEMBERED_USERS = 10_000;

@Injectable()
export class AuthResolver {
  /** `:userID` → user row, while the user's row is unchanged (see ChangeFeed). */
  private readonly targets: FeedMemo<UserRow>;

  constructor(
    private readonly users: UsersRepository,
    private readonly apiKeys: ApiKeysRepository,
    feed: ChangeFeed,
  ) {
    this.targets = new FeedMemo(feed, REMEMBERED_USERS);
  }

  /**
   * Resolves an Authorization header. A header that is present but malformed or unknown is a 401:
   * the caller meant to authenticate, so it is never silently downgraded to a guest.
   */
  async fromAuthorizationHeader(header: string): Promise<AuthContext> {
    const match = BEARER.exec(header.trim());
    if (!match) throw new UnauthorizedException("Malformed Authorization header: expected 'Bearer <token>'.");
    const row = await this.apiKeys.findWithUserByTokenHash(sha256Hex(match[1]));
    if (!row) throw new UnauthorizedException('The provided API token does not correspond to any key.');
    this.assertNotBanned(row.user);
    await this.markSeen(row.user);
    return { kind: 'token', user: row.user, permissions: row.permissions, keyID: row.keyID, fromAPIClient: row.fromAPIClient };
  }

  /** Resolves a session's user; undefined when the session no longer grants access. */
  async fromSession(userID: number, authAt: number): Promise<AuthContext | undefined> {
    const row = await this.users.findForSession(userID);
    if (!row || authAt < row.sessionsValidAfter) return undefined;
    this.assertNotBanned(row.user);
    await this.markSeen(row.user);
    return sessionAuth(row.user);
  }

  /**
   * "Online" (users?online) counts both sessions and API tokens: lastSeen moves on either, at most
   * once per LAST_SEEN_RESOLUTION_MS, and never for an invisible user (their `invisible` preference).
   */
  private async markSeen(user: UserRow) {
    const now = Date.now();
    if (now - user.lastSeen <= LAST_SEEN_RESOLUTION_MS) return;
    if (await this.users.setLastSeen(user.id, now)) user.lastSeen = now;
  }

  /** `:userID`: all digits is an id, anything else a case-insensitive username. */
  async findUserByParam(param: string): Promise<UserRow | undefined> {
    const scopes = (user: UserRow) => [scope.user(user.id)];
    if (!/^[0-9]+$/.test(param)) return this.targets.get(`name:${param.toLowerCase()}`, scopes, () => this.users.findByUsername(param));
    // Past PostgreSQL's integer range no user can match.
    return Number(param) <= 2147483647 ? this.targets.get(`id:${Number(param)}`, scopes, () => this.users.findById(Number(param))) : undefined;
  }

  guest(): AuthContext {
    return GUEST;
  }

  private assertNotBanned(user: UserRow) {
    if (user.authLevel <= BANNED_AUTH_LEVEL) throw new ForbiddenException('This account is banned.');
  }
}
