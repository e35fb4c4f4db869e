import { index, integer, jsonb, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { unixMs } from './columns.js';
import { users } from './users.js';
import type { Permission } from '../../common/permissions.js';

/**
 * OAuth2 API clients (spec OAuth2ClientDoc). The secret is shown once; its SHA-256 checks it, and
 * a copy encrypted with SECRETS_KEY lets webhook deliveries carry it (API_PROFILE=tachi).
 */
export const apiClients = pgTable(
  'api_clients',
  {
    clientID: text('client_id').primaryKey(),
    clientSecretHash: text('client_secret_hash').notNull(),
    /**
     * The secret encrypted with SECRETS_KEY (src/secrets: `v1.<key id>.…`, bound to this row's
     * clientID), for the Authorization header of Tachi-style webhook deliveries. Null for clients
     * whose secret predates it (until reset-secret) or when no key is configured; never in a document.
     */
    clientSecretEncrypted: text('client_secret_encrypted'),
    name: text('name').notNull(),
    author: integer('author')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    requestedPermissions: jsonb('requested_permissions').$type<Permission[]>().notNull(),
    redirectUri: text('redirect_uri'),
    webhookUri: text('webhook_uri'),
    apiKeyFormat: text('api_key_format'),
    apiKeyFilename: text('api_key_filename'),
    /**
     * Signs the webhook deliveries (HMAC-SHA256) and is sent as their bearer token. Stored as it is:
     * the server needs the secret itself to sign, as the receiver does to check.
     */
    webhookSecret: text('webhook_secret').notNull(),
    createdAt: unixMs('created_at').notNull(),
  },
  (t) => [index('api_clients_author_idx').on(t.author)],
);

/** Bearer tokens. Only a SHA-256 of each token is stored; the token itself is shown once. */
export const apiKeys = pgTable(
  'api_keys',
  {
    keyID: serial('key_id').primaryKey(),
    userID: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    identifier: text('identifier').notNull(),
    permissions: jsonb('permissions').$type<Permission[]>().notNull(),
    /** Deleting the client revokes every key it issued. */
    fromAPIClient: text('from_api_client').references(() => apiClients.clientID, { onDelete: 'cascade' }),
    createdAt: unixMs('created_at').notNull(),
  },
  (t) => [index('api_keys_user_idx').on(t.userID), index('api_keys_client_idx').on(t.fromAPIClient)],
);

/**
 * OAuth2 intermediate codes: single use, short-lived. Bound to one client, except the codes that
 * POST /oauth/create-code makes without a clientID (Tachi's confirmation screen).
 */
export const oauthCodes = pgTable('oauth_codes', {
  codeHash: text('code_hash').primaryKey(),
  userID: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  clientID: text('client_id').references(() => apiClients.clientID, { onDelete: 'cascade' }),
  createdOn: unixMs('created_on').notNull(),
  expiresAt: unixMs('expires_at').notNull(),
  /** PKCE (RFC 7636): the S256 challenge of the authorization; the token request must bring its verifier. */
  codeChallenge: text('code_challenge'),
  /**
   * When the code was exchanged, and the key it gave: a used code is kept until it expires, so
   * that a second exchange revokes that key (RFC 6749 10.5, RFC 9700 4.5).
   */
  usedAt: unixMs('used_at'),
  keyID: integer('key_id').references(() => apiKeys.keyID, { onDelete: 'set null' }),
});

export type ClientRow = typeof apiClients.$inferSelect;
export type ApiKeyRow = typeof apiKeys.$inferSelect;
export type OAuthCodeRow = typeof oauthCodes.$inferSelect;
