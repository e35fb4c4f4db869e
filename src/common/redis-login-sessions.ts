import type { RedisClientType } from 'redis';

/**
 * Which Redis login sessions belong to which user, so that deleting an account can end all of
 * them at once (connect-redis keys sessions by id only). Each user has a set of session ids at
 * `<prefix>:user-sess:<userID>`, added to at login and kept as long as the longest session; ids
 * of sessions that already ended are harmless members (deleting a missing key does nothing).
 */
export class RedisLoginSessions {
  constructor(
    private readonly client: RedisClientType,
    /** The deployment's key prefix (REDIS_KEY_PREFIX). */
    private readonly prefix: string,
  ) {}

  /** Where connect-redis keeps a session. */
  sessionKey(sid: string): string {
    return `${this.prefix}:sess:${sid}`;
  }

  private userKey(userID: number): string {
    return `${this.prefix}:user-sess:${userID}`;
  }

  /** Records that session `sid` belongs to the user, for at least `ttlMs`. */
  async add(userID: number, sid: string, ttlMs: number): Promise<void> {
    await this.client.multi().sAdd(this.userKey(userID), sid).pExpire(this.userKey(userID), ttlMs).exec();
  }

  /** Ends every session of the user; returns how many session ids were recorded. */
  async revokeUser(userID: number): Promise<number> {
    const sids = await this.client.sMembers(this.userKey(userID));
    await this.client.del([...sids.map((sid) => this.sessionKey(sid)), this.userKey(userID)]);
    return sids.length;
  }
}
