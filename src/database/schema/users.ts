import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { unixMs } from './columns.js';

export interface SocialMedia {
  discord: string | null;
  twitter: string | null;
  github: string | null;
  steam: string | null;
  youtube: string | null;
  twitch: string | null;
}

export const EMPTY_SOCIALS: SocialMedia = { discord: null, twitter: null, github: null, steam: null, youtube: null, twitch: null };

/** The public profile (spec UserDocument). Credentials live in user_credentials. */
export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    username: text('username').notNull(),
    usernameLowercase: text('username_lowercase').notNull(),
    about: text('about').notNull(),
    status: text('status'),
    socialMedia: jsonb('social_media').$type<SocialMedia>().notNull(),
    customPfpLocation: text('custom_pfp_location'),
    customBannerLocation: text('custom_banner_location'),
    clan: jsonb('clan'),
    badges: jsonb('badges')
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    authLevel: integer('auth_level').notNull().default(1),
    /** Set by an administrator (POST /admin/supporter/:userID); Tachi's UserDocument shows it. */
    isSupporter: boolean('is_supporter').notNull().default(false),
    joinDate: unixMs('join_date').notNull(),
    lastSeen: unixMs('last_seen').notNull(),
  },
  (t) => [uniqueIndex('users_username_lowercase_key').on(t.usernameLowercase), index('users_last_seen_idx').on(t.lastSeen)],
);

/** Private account data, never returned by the API. */
export const userCredentials = pgTable(
  'user_credentials',
  {
    userID: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    emailLowercase: text('email_lowercase').notNull(),
    passwordHash: text('password_hash').notNull(),
    emailVerified: boolean('email_verified').notNull().default(false),
    /** Sessions authenticated before this moment are no longer valid (set by password reset). */
    sessionsValidAfter: unixMs('sessions_valid_after').notNull().default(0),
    /** When the username was last changed (POST /users/:userID/change-username), or null: never. */
    usernameChangedAt: unixMs('username_changed_at'),
  },
  (t) => [uniqueIndex('user_credentials_email_lowercase_key').on(t.emailLowercase)],
);

export type EmailCodePurpose = 'verify-email' | 'reset-password';

/** Single-use mailed codes. Only a SHA-256 of each code is stored. */
export const emailCodes = pgTable(
  'email_codes',
  {
    codeHash: text('code_hash').primaryKey(),
    userID: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose').$type<EmailCodePurpose>().notNull(),
    createdAt: unixMs('created_at').notNull(),
    expiresAt: unixMs('expires_at').notNull(),
  },
  (t) => [index('email_codes_user_idx').on(t.userID, t.purpose)],
);

export const invites = pgTable(
  'invites',
  {
    code: text('code').primaryKey(),
    createdAt: unixMs('created_at').notNull(),
    /** The user who created it (POST /users/:userID/invites/create); null for the CLI's. Their invites go with their account. */
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'cascade' }),
    consumedBy: integer('consumed_by').references(() => users.id, { onDelete: 'set null' }),
    consumedAt: unixMs('consumed_at'),
  },
  (t) => [index('invites_created_by_idx').on(t.createdBy)],
);

/**
 * A user's site-wide preferences (Tachi's UserSettingsDocument `preferences`). A user without a
 * row has the defaults: every preference false.
 */
export const userSettings = pgTable('user_settings', {
  userID: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** Hides the user's presence: lastSeen stays as it was, and GET /users (lists, online, search) leaves them out. */
  invisible: boolean('invisible').notNull().default(false),
  developerMode: boolean('developer_mode').notNull().default(false),
  advancedMode: boolean('advanced_mode').notNull().default(false),
  contentiousContent: boolean('contentious_content').notNull().default(false),
  /** A preference of clients (whether to offer score deletion); the server does not enforce it. */
  deletableScores: boolean('deletable_scores').notNull().default(false),
});

/** express-session rows (see common/http/db-session.store.ts). */
export const loginSessions = pgTable(
  'login_sessions',
  {
    sid: text('sid').primaryKey(),
    sess: jsonb('sess').notNull(),
    expire: unixMs('expire').notNull(),
  },
  (t) => [index('login_sessions_expire_idx').on(t.expire)],
);

export type UserRow = typeof users.$inferSelect;
export type InviteRow = typeof invites.$inferSelect;
export type UserSettingsRow = typeof userSettings.$inferSelect;
