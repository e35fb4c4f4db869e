import 'reflect-metadata';
import { HttpException, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Command, InvalidArgumentError } from 'commander';
import { openConfiguredDatabase } from './bootstrap.js';
import { loadConfig } from './config/app-config.js';
import { ConfigError } from './config/app-config.js';
import { DataDirLockedError } from './database/data-dir-lock.js';
import { BackupError, backupEmbedded, restoreEmbedded } from './database/backup.js';
import { embeddedDbDir } from './database/database.js';
import { InvitesService } from './auth/invites.service.js';
import { InlineImportQueue } from './imports/import-queue.js';
import { PolledWebhookQueue } from './webhooks/webhook-queue.js';
import { CliModule } from './processes/cli.module.js';
import { SERVER_VERSION } from './status/version.js';
import { SeedLoader, SeedLoadError } from './seeds/seed-loader.js';
import { SeedSource, SeedSourceError, DEFAULT_SEED_URL } from './seeds/seed-source.js';
import { progressFor } from './seeds/progress.js';
import { formatSeedReport } from './seeds/seed-report.js';
import { gamesWithCatalogChanges, OrphansService } from './imports/orphans.service.js';
import { SnapshotsService } from './ugpt/snapshots.service.js';
import { RerankService } from './scoring/rerank.service.js';
import { findGame, GAMES } from './game-support/registry.js';
import { UsersService } from './users/users.service.js';
import { NotificationsService } from './notifications/notifications.service.js';
import { AdminService, type Actor } from './admin/admin.service.js';
import { RedisLoginSessions } from './common/redis-login-sessions.js';
import { createClient, type RedisClientType } from 'redis';
import type { RecalcDto } from './admin/dto/admin.dto.js';

class CliError extends Error {}

/**
 * Opens the configured database (migrated), starts the CLI's application on it, runs fn with the
 * application's services, and always closes both. Nest logs nothing: the output is the command's.
 */
async function withServices<T>(fn: (services: INestApplicationContext) => Promise<T>, options: { loginSessions?: boolean } = {}): Promise<T> {
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

function integer(name: string, min: number, max: number) {
  return (value: string) => {
    if (!/^-?\d+$/.test(value) || Number(value) < min || Number(value) > max)
      throw new InvalidArgumentError(`${name} must be an integer from ${min} to ${max}.`);
    return Number(value);
  };
}

const program = new Command()
  .name('npm run cli --')
  .description('Administration commands. In embedded mode (no DATABASE_URL) they need the server stopped: PGlite allows one process.')
  .version(SERVER_VERSION);

program
  .command('migrate')
  .description('Apply the database migrations (the server also applies them at boot).')
  .action(() => withServices(async () => console.log('Migrations applied.')));

/** Longest announcement title. */
const ANNOUNCEMENT_TITLE_MAX = 500;

program
  .command('announce')
  .description('Send a SITE_ANNOUNCEMENT notification with this title to every user.')
  .argument('<title>', `the announcement (1 to ${ANNOUNCEMENT_TITLE_MAX} characters)`, (value: string) => {
    const title = value.trim();
    if (!title) throw new InvalidArgumentError('The title must not be blank.');
    if (title.length > ANNOUNCEMENT_TITLE_MAX) throw new InvalidArgumentError(`The title must be at most ${ANNOUNCEMENT_TITLE_MAX} characters.`);
    return title;
  })
  .action((title: string) =>
    withServices(async (services) => {
      const sent = await services.get(NotificationsService).announce(title);
      console.log(`Announcement sent to ${sent} user(s): ${title}`);
    }),
  );

program
  .command('auth-level')
  .description("Set a user's auth level: 0 banned, 1 user, 2 moderator, 3 administrator.")
  .argument('<username>', 'the username (case-insensitive)')
  .argument('<level>', 'the new level', integer('level', 0, 3))
  .action((username: string, level: number) =>
    withServices(async (services) => {
      const row = await services.get(UsersService).setAuthLevel(username, level);
      if (!row) throw new CliError(`No user is named ${username}.`);
      console.log(`${row.username} (id ${row.id}) now has auth level ${level}.`);
    }),
  );

program
  .command('seeds')
  .description('Load Tachi-format seed collections (songs, charts, folders, tables, goals, quests, questlines). Idempotent.')
  .option('--from <dir|url>', 'a directory or a base URL holding songs-<game>.json, charts-<game>.json, folders.json, …', DEFAULT_SEED_URL)
  .option('--games <a,b>', 'only these games (comma-separated); default: every supported game')
  .action((options: { from: string; games?: string }) =>
    withServices(async (services) => {
      const games = options.games
        ?.split(',')
        .map((g) => g.trim())
        .filter(Boolean);
      const report = await services.get(SeedLoader).load(new SeedSource(options.from), { games, progress: progressFor(process.stderr) });
      for (const line of formatSeedReport(report)) console.log(line);
      // New or changed songs and charts may be what earlier orphaned scores were waiting for.
      const changedGames = gamesWithCatalogChanges(report);
      if (changedGames.length) {
        const retried = await services.get(OrphansService).retryForGames(changedGames);
        if (retried.processed)
          console.log(
            `Orphaned scores retried: ${retried.processed} (${retried.success} now imported, ${retried.removed} dropped as invalid or duplicate, ${retried.failed} still unmatched).`,
          );
        if (retried.skippedUsers)
          console.log(
            `Orphaned scores of ${retried.skippedUsers} user(s) were not retried: an import of theirs was running. They retry with POST /import/orphans, or at the next seed load that changes these games.`,
          );
      }
    }),
  );

program
  .command('rerank')
  .description(
    "Recompute every chart's PB ranks and player counts (rank, outOf), leaving no chart dirty. The background refresher keeps them right after imports; this repairs them after a bulk load or a change of ranking rules.",
  )
  .option('--games <a,b>', 'only these games (comma-separated); default: every game')
  .action(async (options: { games?: string }) => {
    const games = options.games
      ?.split(',')
      .map((g) => g.trim())
      .filter(Boolean);
    const unknown = games?.filter((g) => !findGame(g)) ?? [];
    if (unknown.length) throw new CliError(`Unknown game(s): ${unknown.join(', ')}. Valid games: ${GAMES.map((g) => g.game).join(', ')}.`);
    await withServices(async (services) => {
      const result = await services.get(RerankService).rerank(games);
      console.log(`Ranked the PBs of ${result.charts} chart(s): ${result.changed} PB(s) changed rank.`);
    });
  });

program
  .command('snapshot')
  .description("Take today's profile snapshot now (timestamp: today's UTC midnight). Profiles that already have it keep it.")
  .action(() =>
    withServices(async (services) => {
      const result = await services.get(SnapshotsService).take();
      const day = new Date(result.timestamp).toISOString().slice(0, 10);
      if (!result.taken) throw new CliError(`Another instance is taking the snapshot of ${day}; nothing was written.`);
      console.log(`Snapshot of ${day} (00:00 UTC): ${result.written} written.`);
    }),
  );

const CLI_ACTOR: Actor = { userID: null, via: 'cli' };

program
  .command('recalc')
  .description(
    'Recompute calculatedData, PBs, ranks, sessions and profile stats of the matching scores (all scores without filters), in batches. Safe to re-run.',
  )
  .option('--game <game>', 'only this game')
  .option('--playtype <playtype>', 'only this playtype')
  .option('--user <id>', 'only this user id', integer('user', 1, 2147483647))
  .option('--chart <chartID>', 'only this chart')
  .option('--import-type <type>', 'only scores imported with this import type')
  .option('--service <service>', 'only scores of this service')
  .option('--added-from <ms>', 'only scores added at or after this time (Unix ms)', integer('added-from', 0, Number.MAX_SAFE_INTEGER))
  .option('--added-to <ms>', 'only scores added at or before this time (Unix ms)', integer('added-to', 0, Number.MAX_SAFE_INTEGER))
  .action(
    (options: {
      game?: string;
      playtype?: string;
      user?: number;
      chart?: string;
      importType?: string;
      service?: string;
      addedFrom?: number;
      addedTo?: number;
    }) =>
      withServices(async (services) => {
        const filter: RecalcDto = {
          game: options.game,
          playtype: options.playtype,
          userID: options.user,
          chartID: options.chart,
          importType: options.importType,
          service: options.service,
          timeAddedFrom: options.addedFrom,
          timeAddedTo: options.addedTo,
        };
        const admin = services.get(AdminService);
        const progress = progressFor(process.stderr);
        progress.phase('Recalculating scores', await admin.countScores(filter));
        let shown = 0;
        const total = await admin.recalc(CLI_ACTOR, filter, (done) => {
          progress.advance(done - shown);
          shown = done;
        });
        progress.done();
        console.log(`Recalculated ${total} score(s).`);
      }),
  );

program
  .command('delete-user')
  .description(
    'Delete a user and everything theirs (scores, PBs, sessions, imports, keys, clients, images, notifications), as POST /admin/delete-user does, and fix the leaderboards they were in. Audited.',
  )
  .argument('<username>', 'the username (case-insensitive)')
  .option('--yes', 'confirm: the deletion cannot be undone')
  .action((username: string, options: { yes?: boolean }) =>
    withServices(
      async (services) => {
        const user = await services.get(UsersService).findByUsername(username);
        if (!user) throw new CliError(`No user is named ${username}.`);
        if (!options.yes)
          throw new CliError(`This deletes ${user.username} (id ${user.id}) and everything theirs, for good. Run it again with --yes to go ahead.`);
        await services.get(AdminService).deleteUser(CLI_ACTOR, user.id);
        console.log(`Deleted ${user.username} (id ${user.id}) and everything theirs.`);
      },
      { loginSessions: true },
    ),
  );

program
  .command('audit')
  .description('Print the audit log of admin actions (routes and CLI), newest first.')
  .option('--limit <n>', 'how many entries', integer('limit', 1, 10000), 50)
  .action((options: { limit: number }) =>
    withServices(async (services) => {
      for (const e of await services.get(AdminService).listAudit(options.limit))
        console.log(
          `${new Date(e.timestamp).toISOString()}\t${e.action}\t${e.userID === null ? e.via : `user ${e.userID} (${e.via})`}\t${JSON.stringify(e.params)}`,
        );
    }),
  );

/** The embedded database's directory; with DATABASE_URL these commands point to PostgreSQL's own tools instead. */
function embeddedDbFor(command: string): string {
  const config = loadConfig();
  if (config.DATABASE_URL)
    throw new CliError(
      `${command} is for the embedded database. With DATABASE_URL, use PostgreSQL's tools: pg_dump --format=custom --file=<file> "$DATABASE_URL" to back up, pg_restore --clean --if-exists --no-owner --dbname="$DATABASE_URL" <file> to restore.`,
    );
  return embeddedDbDir(config.dataDir);
}

/** Runs a backup or restore; its refusals are reported like the other commands' (message only, exit code 1). */
async function backupCommand(work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (err) {
    throw err instanceof BackupError ? new CliError(err.message) : err;
  }
}

program
  .command('backup')
  .description('Write the embedded database (DATA_DIR/db) to a file. Run it with the server stopped: it fails at once while the server runs.')
  .argument('<file>', 'the backup file to write (a gzipped PGlite data directory)')
  .action((file: string) =>
    backupCommand(async () => {
      const { bytes } = await backupEmbedded(embeddedDbFor('backup'), file);
      console.log(`Backed up the embedded database to ${file} (${bytes} bytes).`);
    }),
  );

program
  .command('restore')
  .description('Replace the embedded database (DATA_DIR/db) with a backup. Run it with the server stopped.')
  .argument('<file>', 'a file written by `backup`')
  .option('--force', 'replace a database that DATA_DIR/db already holds')
  .action((file: string, options: { force?: boolean }) =>
    backupCommand(async () => {
      const dbDir = embeddedDbFor('restore');
      await restoreEmbedded(dbDir, file, { force: options.force === true });
      console.log(`Restored ${file} into ${dbDir}. The server applies newer migrations when it starts.`);
    }),
  );

const inviteCommand = program.command('invites').description('Invite codes, for INVITE_ONLY=true deployments.');
inviteCommand
  .command('create')
  .description('Create invite codes and print them, one a line.')
  .option('-n, --count <n>', 'how many', integer('count', 1, 1000), 1)
  .action((options: { count: number }) =>
    withServices(async (services) => {
      for (const code of await services.get(InvitesService).create(options.count)) console.log(code);
    }),
  );
inviteCommand
  .command('list')
  .description('List invite codes and who used them.')
  .action(() =>
    withServices(async (services) => {
      for (const row of await services.get(InvitesService).list())
        console.log(`${row.code}\t${row.consumedBy === null ? 'unused' : `used by user ${row.consumedBy} at ${new Date(row.consumedAt ?? 0).toISOString()}`}`);
    }),
  );

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (
    err instanceof CliError ||
    err instanceof ConfigError ||
    err instanceof DataDirLockedError ||
    err instanceof SeedLoadError ||
    err instanceof SeedSourceError ||
    err instanceof HttpException
  ) {
    console.error(err.message);
  } else {
    console.error(err);
  }
  process.exitCode = 1;
}
