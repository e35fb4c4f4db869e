/** The whole Drizzle schema: one file per aggregate under ./schema. */
export * from './schema/users.js';
export * from './schema/api-keys.js';
export * from './schema/notifications.js';
export * from './schema/game-stats.js';
export * from './schema/app-secrets.js';
export * from './schema/catalog.js';
export * from './schema/scores.js';
export * from './schema/imports.js';
export * from './schema/ugpt.js';
export * from './schema/orphan-charts.js';
export * from './schema/admin.js';
export * from './schema/integrations.js';
export * from './schema/webhooks.js';
export * from './schema/targets.js';
export * from './schema/social.js';
