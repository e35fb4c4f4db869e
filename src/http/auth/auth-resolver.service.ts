import { ForbiddenException, Injectable, UnauthorizedException } from '@nestjs/common';
import { eq, getTableColumns } from 'drizzle-orm';
import { Database } from '../../database/database.js';
import { apiKeys, userCredentials, users } from '../../database/schema.js';
import { sha256Hex } from '../../common/crypto.js';
import { BANNED_AUTH_LEVEL, GUEST, sessionAuth, type AuthContext, type UserRow } from './auth-context.js';

const BEARER = /^Bearer ([A-Za-z0-9._~+/=-]+)$/;
/** lastSeen is written at most this often per user, so reads do not turn into writes. */
const LAST_SEEN_RESOLUTION_MS = 60_000;

@Injectable()
export class AuthResolver {
  constructor(private readonly database: Database) {}

  /**
   * Resolves an Authorization header. A header that is present but malformed or unknown is a 401:
   * the caller meant to authenticate, so it is never silently downgraded to a guest.
   */
  async fromAuthorizationHeader(header: string): Promise<AuthContext> {
    const match = BEARER.exec(header.trim());
    if (!match) throw new UnauthorizedException("Malformed Authorization header: expected 'Bearer <token>'.");
    const [row] = await this.database.db
      .select({ user: getTableColumns(users), keyID: apiKeys.keyID, permissions: apiKeys.permissions, fromAPIClient: apiKeys.fromAPIClient })
      .from(apiKeys)
      .innerJoin(users, eq(users.id, apiKeys.userID))
      .where(eq(apiKeys.tokenHash, sha256Hex(match[1])))
      .limit(1);
    if (!row) throw new UnauthorizedException('The provided API token does not correspond to any key.');
    this.assertNotBanned(row.user);
    await this.markSeen(row.user);
    return { kind: 'token', user: row.user, permissions: row.permissions, keyID: row.keyID, fromAPIClient: row.fromAPIClient };
  }

  /** Resolves a session's user; undefined when the session no longer grants access. */
  async fromSession(userID: number, authAt: number): Promise<AuthContext | undefined> {
    const [row] = await this.database.db
      .select({ user: getTableColumns(users), sessionsValidAfter: userCredentials.sessionsValidAfter })
      .from(users)
      .innerJoin(userCredentials, eq(userCredentials.userID, users.id))
      .where(eq(users.id, userID))
      .limit(1);
    if (!row || authAt < row.sessionsValidAfter) return undefined;
    this.assertNotBanned(row.user);
    await this.markSeen(row.user);
    return sessionAuth(row.user);
  }

  /** "Online" (users?online) counts both sessions and API tokens: lastSeen moves on either, at most once per LAST_SEEN_RESOLUTION_MS. */
  private async markSeen(user: UserRow) {
    const now = Date.now();
    if (now - user.lastSeen <= LAST_SEEN_RESOLUTION_MS) return;
    await this.database.db.update(users).set({ lastSeen: now }).where(eq(users.id, user.id));
    user.lastSeen = now;
  }

  /** `:userID`: all digits is an id, anything else a case-insensitive username. */
  async findUserByParam(param: string): Promise<UserRow | undefined> {
    const where = /^[0-9]+$/.test(param)
      ? Number(param) <= 2147483647
        ? eq(users.id, Number(param))
        : undefined
      : eq(users.usernameLowercase, param.toLowerCase());
    if (!where) return undefined;
    const [user] = await this.database.db.select().from(users).where(where).limit(1);
    return user;
  }

  guest(): AuthContext {
    return GUEST;
  }

  private assertNotBanned(user: UserRow) {
    if (user.authLevel <= BANNED_AUTH_LEVEL) throw new ForbiddenException('This account is banned.');
  }
}
