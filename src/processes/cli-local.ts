import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { createClient, type RedisClientType } from 'redis';
import { openConfiguredDatabase } from '../bootstrap.js';
import { loadConfig } from '../config/app-config.js';
import { backupEmbedded, restoreEmbedded } from '../database/backup.js';
import { embeddedDbDir } from '../database/database.js';
import { InlineImportQueue } from '../imports/import-queue.js';
import { PolledWebhookQueue } from '../webhooks/webhook-queue.js';
import { RedisLoginSessions } from '../common/redis-login-sessions.js';
import { processOutput } from '../cli-socket/command-output.js';
import { CliModule } from './cli.module.js';
import { runCliCommand, type CommandHost, type ServiceOptions } from './cli-commands.js';

/**
 * Opens the configured database (migrated), starts the CLI's application on it, runs fn with the
 * application's services, and always closes both. Nest logs nothing: the output is the command's.
 */
async function withOwnServices<T>(fn: (services: INestApplicationContext) => Promise<T>, options: ServiceOptions = {}): Promise<T> {
  const config = loadConfig();
  const database = await openConfiguredDatabase(config);
  let context: INestApplicationContext | undefined;
  let sessionsClient: RedisClientType | undefined;
  try {
    await database.migrate();
    // Imports never run here: the queue only completes ImportsService's dependencies.
    const importQueue = new InlineImportQueue();
    // With REDIS_URL, login sessions live in Redis: a command that deletes accounts ends them there too.
    if (options.loginSessions && config.REDIS_URL) {
      sessionsClient = createClient({ url: config.REDIS_URL });
      await sessionsClient.connect();
    }
    const loginSessions = sessionsClient ? new RedisLoginSessions(sessionsClient, config.REDIS_KEY_PREFIX) : null;
    // Webhook events of imports the CLI completes (orphan retries) are stored; the server delivers them.
    const webhookQueue = new PolledWebhookQueue(false);
    context = await NestFactory.createApplicationContext(
      CliModule.register({ config, database, ownsDatabase: false, importQueue, loginSessions, webhookQueue }),
      {
        logger: false,
        abortOnError: false,
      },
    );
    return await fn(context);
  } finally {
    try {
      await context?.close();
    } finally {
      await sessionsClient?.quit().catch(() => undefined);
      await database.close();
    }
  }
}

/** The CLI's own process: it opens the database for the command (the embedded one fails at once while another process holds it). */
const ownProcess: CommandHost = {
  resolvePath: (file) => file,
  config: () => loadConfig(),
  withServices: withOwnServices,
  backupEmbedded: (file) => backupEmbedded(embeddedDbDir(loadConfig().dataDir), file),
  restoreEmbedded: async (file, options) => {
    const dbDir = embeddedDbDir(loadConfig().dataDir);
    await restoreEmbedded(dbDir, file, options);
    return dbDir;
  },
};

/** Runs the command line argv in this process, on its own streams; resolves with its exit code. */
export function runInThisProcess(argv: readonly string[]): Promise<number> {
  return runCliCommand(argv, processOutput(), ownProcess);
}
