import { Injectable } from '@nestjs/common';
import { and, desc, eq, getTableColumns, gte, ilike, inArray, isNull, lte, notExists, or, sql } from 'drizzle-orm';
import { aliasedColumns, Database, readStatement, type Queryable } from '../database/database.js';
import { containsPattern } from '../database/like.js';
import { EMPTY_SOCIALS, userCredentials, userSettings, users, type SocialMedia } from '../database/schema.js';
import type { UserRow } from '../database/schema.js';

/** $1 user ids: every :userID route and every leaderboard page reads users so (a prepared statement). */
const USERS_BY_IDS = readStatement<UserRow>(
  'users_by_ids',
  sql`SELECT ${aliasedColumns(getTableColumns(users))} FROM ${users} WHERE ${users.id} = ANY($1::int[])`,
);

export const DEFAULT_ABOUT = "I'm a fairly nondescript person.";

export interface NewUser {
  username: string;
  email: string;
  passwordHash: string;
}

export type ImageKind = 'pfp' | 'banner';

const imageColumn = (kind: ImageKind) => (kind === 'pfp' ? users.customPfpLocation : users.customBannerLocation);

export type ProfileChanges = Partial<Pick<UserRow, 'about' | 'status'>> & { socialMedia?: Partial<SocialMedia> };

@Injectable()
export class UsersRepository {
  constructor(private readonly database: Database) {}

  /** By id; outside a transaction through the prepared USERS_BY_IDS. */
  async findById(id: number, q: Queryable = this.database.db): Promise<UserRow | undefined> {
    if (q === this.database.db) return (await this.findByIds([id]))[0];
    const [user] = await q.select().from(users).where(eq(users.id, id)).limit(1);
    return user;
  }

  /** The users of these ids that exist, in no particular order. */
  findByIds(ids: readonly number[]): Promise<UserRow[]> {
    return this.database.read(USERS_BY_IDS, [ids]);
  }

  async findByUsername(username: string, q: Queryable = this.database.db): Promise<UserRow | undefined> {
    const [user] = await q.select().from(users).where(eq(users.usernameLowercase, username.toLowerCase())).limit(1);
    return user;
  }

  /** The user, and the time before which its sessions no longer grant access; undefined without credentials. */
  async findForSession(userID: number): Promise<{ user: UserRow; sessionsValidAfter: number } | undefined> {
    const [row] = await this.database.db
      .select({ user: getTableColumns(users), sessionsValidAfter: userCredentials.sessionsValidAfter })
      .from(users)
      .innerJoin(userCredentials, eq(userCredentials.userID, users.id))
      .where(eq(users.id, userID))
      .limit(1);
    return row;
  }

  async findManyByIds(ids: readonly number[], q: Queryable = this.database.db): Promise<UserRow[]> {
    if (ids.length === 0) return [];
    return q
      .select()
      .from(users)
      .where(inArray(users.id, [...new Set(ids)]));
  }

  /**
   * Up to `limit` users, most recently seen first; `online` keeps those seen in the last 5 minutes.
   * Invisible users (their `invisible` preference) are never listed.
   */
  async list(options: { online: boolean; search?: string; limit: number }): Promise<UserRow[]> {
    const conditions = [notExists(this.invisibleSettingsOf(users.id))];
    if (options.online) conditions.push(gte(users.lastSeen, Date.now() - 5 * 60 * 1000));
    if (options.search) conditions.push(ilike(users.usernameLowercase, containsPattern(options.search.toLowerCase())));
    return this.database.db
      .select()
      .from(users)
      .where(conditions.length ? and(...conditions) : undefined)
      .orderBy(desc(users.lastSeen), users.id)
      .limit(options.limit);
  }

  async findCredentialsByEmail(email: string, q: Queryable = this.database.db) {
    const [row] = await q.select().from(userCredentials).where(eq(userCredentials.emailLowercase, email.toLowerCase())).limit(1);
    return row;
  }

  async findCredentials(userID: number, q: Queryable = this.database.db) {
    const [row] = await q.select().from(userCredentials).where(eq(userCredentials.userID, userID)).limit(1);
    return row;
  }

  async insert(user: NewUser, q: Queryable): Promise<UserRow> {
    const now = Date.now();
    const [row] = await q
      .insert(users)
      .values({
        username: user.username,
        usernameLowercase: user.username.toLowerCase(),
        about: DEFAULT_ABOUT,
        status: null,
        socialMedia: EMPTY_SOCIALS,
        joinDate: now,
        lastSeen: now,
      })
      .returning();
    await q.insert(userCredentials).values({ userID: row.id, email: user.email, emailLowercase: user.email.toLowerCase(), passwordHash: user.passwordHash });
    return row;
  }

  async updateProfile(userID: number, changes: ProfileChanges): Promise<UserRow> {
    const { socialMedia, ...columns } = changes;
    const [row] = await this.database.db
      .update(users)
      .set({
        ...columns,
        // jsonb || merges only the keys being changed, so concurrent edits of other keys are kept
        ...(socialMedia && Object.keys(socialMedia).length ? { socialMedia: sql`${users.socialMedia} || ${JSON.stringify(socialMedia)}::jsonb` } : {}),
      })
      .where(eq(users.id, userID))
      .returning();
    return row;
  }

  /** Moves lastSeen, unless the user is invisible (their `invisible` preference); whether it moved. */
  async setLastSeen(userID: number, lastSeen: number): Promise<boolean> {
    const moved = await this.database.db
      .update(users)
      .set({ lastSeen })
      .where(and(eq(users.id, userID), notExists(this.invisibleSettingsOf(users.id))))
      .returning({ id: users.id });
    return moved.length > 0;
  }

  private invisibleSettingsOf(userID: typeof users.id) {
    return this.database.db
      .select({ one: sql`1` })
      .from(userSettings)
      .where(and(eq(userSettings.userID, userID), eq(userSettings.invisible, true)));
  }

  async findImageLocation(userID: number, kind: ImageKind): Promise<string | null | undefined> {
    const [row] = await this.database.db
      .select({ current: imageColumn(kind) })
      .from(users)
      .where(eq(users.id, userID));
    return row?.current;
  }

  /** Sets the location and returns the previous one, under a row lock so that racing uploads each see exactly their predecessor. */
  swapImageLocation(userID: number, kind: ImageKind, location: string | null): Promise<string | null> {
    return this.database.transaction(async (tx) => {
      const [row] = await tx
        .select({ old: imageColumn(kind) })
        .from(users)
        .where(eq(users.id, userID))
        .for('update');
      await this.setImageLocation(userID, kind, location, tx);
      return row?.old ?? null;
    });
  }

  async setImageLocation(userID: number, kind: ImageKind, location: string | null, q: Queryable = this.database.db): Promise<void> {
    await q
      .update(users)
      .set(kind === 'pfp' ? { customPfpLocation: location } : { customBannerLocation: location })
      .where(eq(users.id, userID));
  }

  async setSupporter(userID: number, isSupporter: boolean): Promise<void> {
    await this.database.db.update(users).set({ isSupporter }).where(eq(users.id, userID));
  }

  async setAuthLevel(userID: number, authLevel: number): Promise<void> {
    await this.database.db.update(users).set({ authLevel }).where(eq(users.id, userID));
  }

  /** Sets the auth level of the user with this username (case-insensitive); undefined when there is none. */
  async setAuthLevelByUsername(username: string, authLevel: number): Promise<Pick<UserRow, 'id' | 'username'> | undefined> {
    const [row] = await this.database.db
      .update(users)
      .set({ authLevel })
      .where(eq(users.usernameLowercase, username.toLowerCase()))
      .returning({ id: users.id, username: users.username });
    return row;
  }

  /** Also ends every existing session of the account, and marks its email verified. */
  async setPassword(userID: number, passwordHash: string, q: Queryable): Promise<void> {
    await q.update(userCredentials).set({ passwordHash, sessionsValidAfter: Date.now(), emailVerified: true }).where(eq(userCredentials.userID, userID));
  }

  /** Sets a new password and ends every session of the account authenticated before `now` (a password change). */
  async changePassword(userID: number, passwordHash: string, now: number): Promise<void> {
    await this.database.db.update(userCredentials).set({ passwordHash, sessionsValidAfter: now }).where(eq(userCredentials.userID, userID));
  }

  /**
   * Renames the user unless they renamed themselves after `changedBefore` (the cooldown): true when
   * renamed. A username taken meanwhile (case-insensitively) fails with the unique violation.
   */
  async changeUsername(userID: number, username: string, now: number, changedBefore: number, q: Queryable): Promise<boolean> {
    const stamped = await q
      .update(userCredentials)
      .set({ usernameChangedAt: now })
      .where(and(eq(userCredentials.userID, userID), or(isNull(userCredentials.usernameChangedAt), lte(userCredentials.usernameChangedAt, changedBefore))))
      .returning({ userID: userCredentials.userID });
    if (stamped.length === 0) return false;
    await q.update(users).set({ username, usernameLowercase: username.toLowerCase() }).where(eq(users.id, userID));
    return true;
  }

  /** Sets a new, unverified, email address. A taken address (case-insensitively) fails with the unique violation. */
  async changeEmail(userID: number, email: string, q: Queryable): Promise<void> {
    await q.update(userCredentials).set({ email, emailLowercase: email.toLowerCase(), emailVerified: false }).where(eq(userCredentials.userID, userID));
  }

  async markEmailVerified(userID: number, q: Queryable = this.database.db): Promise<void> {
    await q.update(userCredentials).set({ emailVerified: true }).where(eq(userCredentials.userID, userID));
  }
}
