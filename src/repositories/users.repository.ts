import { Injectable } from '@nestjs/common';
import { and, desc, eq, gte, ilike, inArray, sql } from 'drizzle-orm';
import { Database, type Queryable } from '../database/database.js';
import { EMPTY_SOCIALS, userCredentials, users, type SocialMedia } from '../database/schema.js';
import type { UserRow } from '../database/schema.js';

export const DEFAULT_ABOUT = "I'm a fairly nondescript person.";

export interface NewUser {
  username: string;
  email: string;
  passwordHash: string;
}

export type ProfileChanges = Partial<Pick<UserRow, 'about' | 'status'>> & { socialMedia?: Partial<SocialMedia> };

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

@Injectable()
export class UsersRepository {
  constructor(private readonly database: Database) {}

  async findById(id: number, q: Queryable = this.database.db): Promise<UserRow | undefined> {
    const [user] = await q.select().from(users).where(eq(users.id, id)).limit(1);
    return user;
  }

  async findByUsername(username: string, q: Queryable = this.database.db): Promise<UserRow | undefined> {
    const [user] = await q.select().from(users).where(eq(users.usernameLowercase, username.toLowerCase())).limit(1);
    return user;
  }

  async findManyByIds(ids: readonly number[], q: Queryable = this.database.db): Promise<UserRow[]> {
    if (ids.length === 0) return [];
    return q.select().from(users).where(inArray(users.id, [...new Set(ids)]));
  }

  /** Up to `limit` users, most recently seen first; `online` keeps those seen in the last 5 minutes. */
  async list(options: { online: boolean; search?: string; limit: number }): Promise<UserRow[]> {
    const conditions = [];
    if (options.online) conditions.push(gte(users.lastSeen, Date.now() - 5 * 60 * 1000));
    if (options.search) conditions.push(ilike(users.usernameLowercase, `%${escapeLike(options.search.toLowerCase())}%`));
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

  async setImageLocation(userID: number, kind: 'pfp' | 'banner', location: string | null, q: Queryable = this.database.db): Promise<void> {
    await q
      .update(users)
      .set(kind === 'pfp' ? { customPfpLocation: location } : { customBannerLocation: location })
      .where(eq(users.id, userID));
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

  async setPassword(userID: number, passwordHash: string, q: Queryable): Promise<void> {
    await q.update(userCredentials).set({ passwordHash, sessionsValidAfter: Date.now(), emailVerified: true }).where(eq(userCredentials.userID, userID));
  }

  async markEmailVerified(userID: number, q: Queryable = this.database.db): Promise<void> {
    await q.update(userCredentials).set({ emailVerified: true }).where(eq(userCredentials.userID, userID));
  }
}
