import 'reflect-metadata';
import { Command, InvalidArgumentError } from 'commander';
import { eq } from 'drizzle-orm';
import { openConfiguredDatabase } from './bootstrap.js';
import { loadConfig } from './config/app-config.js';
import { ConfigError } from './config/app-config.js';
import { DataDirLockedError } from './database/data-dir-lock.js';
import type { Database } from './database/database.js';
import { invites, users } from './database/schema.js';
import { InvitesService } from './auth/invites.service.js';
import { SERVER_VERSION } from './status/version.js';
import { SeedLoader, SeedLoadError } from './seeds/seed-loader.js';
import { SeedSource, SeedSourceError, DEFAULT_SEED_URL } from './seeds/seed-source.js';
import { progressFor } from './seeds/progress.js';
import { formatSeedReport } from './seeds/seed-report.js';
import { ImportPipeline } from './imports/import-pipeline.js';
import { gamesWithCatalogChanges, OrphansService } from './imports/orphans.service.js';
import { ChartMatchRepository } from './repositories/chart-match.repository.js';
import { OrphansRepository } from './repositories/orphans.repository.js';
import { ImportLockService } from './scoring/import-lock.service.js';
import { SnapshotsService } from './ugpt/snapshots.service.js';
import { rerankAll } from './scoring/rerank.js';
import { findGame, GAMES } from './game-support/registry.js';

class CliError extends Error {}

/** Opens the configured database (migrated), runs fn, and always closes it. */
async function withDatabase<T>(fn: (database: Database) => Promise<T>): Promise<T> {
  const database = await openConfiguredDatabase(loadConfig());
  try {
    await database.migrate();
    return await fn(database);
  } finally {
    await database.close();
  }
}

function integer(name: string, min: number, max: number) {
  return (value: string) => {
    if (!/^-?\d+$/.test(value) || Number(value) < min || Number(value) > max) throw new InvalidArgumentError(`${name} must be an integer from ${min} to ${max}.`);
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
  .action(() => withDatabase(async () => console.log('Migrations applied.')));

program
  .command('auth-level')
  .description("Set a user's auth level: 0 banned, 1 user, 2 moderator, 3 administrator.")
  .argument('<username>', 'the username (case-insensitive)')
  .argument('<level>', 'the new level', integer('level', 0, 3))
  .action((username: string, level: number) =>
    withDatabase(async (database) => {
      const [row] = await database.db.update(users).set({ authLevel: level }).where(eq(users.usernameLowercase, username.toLowerCase())).returning({ id: users.id, username: users.username });
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
    withDatabase(async (database) => {
      const games = options.games?.split(',').map((g) => g.trim()).filter(Boolean);
      const report = await new SeedLoader(database, progressFor(process.stderr)).load(new SeedSource(options.from), { games });
      for (const line of formatSeedReport(report)) console.log(line);
      // New or changed songs and charts may be what earlier orphaned scores were waiting for.
      const changedGames = gamesWithCatalogChanges(report);
      if (changedGames.length) {
        const orphans = new OrphansService(new OrphansRepository(database), new ImportLockService(database), new ImportPipeline(database, new ChartMatchRepository(database)));
        const retried = await orphans.retryForGames(changedGames);
        if (retried.processed) console.log(`Orphaned scores retried: ${retried.processed} (${retried.success} now imported, ${retried.removed} dropped as invalid or duplicate, ${retried.failed} still unmatched).`);
        if (retried.skippedUsers)
          console.log(`Orphaned scores of ${retried.skippedUsers} user(s) were not retried: an import of theirs was running. They retry with POST /import/orphans, or at the next seed load that changes these games.`);
      }
    }),
  );

program
  .command('rerank')
  .description("Recompute every chart's PB ranks (rank, outOf). Imports keep them right; this repairs them after a bulk load or a change of ranking rules.")
  .option('--games <a,b>', 'only these games (comma-separated); default: every game')
  .action(async (options: { games?: string }) => {
    const games = options.games?.split(',').map((g) => g.trim()).filter(Boolean);
    const unknown = games?.filter((g) => !findGame(g)) ?? [];
    if (unknown.length) throw new CliError(`Unknown game(s): ${unknown.join(', ')}. Valid games: ${GAMES.map((g) => g.game).join(', ')}.`);
    await withDatabase(async (database) => {
      const result = await rerankAll(database, games);
      console.log(`Ranked the PBs of ${result.charts} chart(s): ${result.changed} PB(s) changed rank.`);
    });
  });

program
  .command('snapshot')
  .description("Take today's profile snapshot now (timestamp: today's UTC midnight). Profiles that already have it keep it.")
  .action(() =>
    withDatabase(async (database) => {
      const result = await new SnapshotsService(database).take();
      const day = new Date(result.timestamp).toISOString().slice(0, 10);
      if (!result.taken) throw new CliError(`Another instance is taking the snapshot of ${day}; nothing was written.`);
      console.log(`Snapshot of ${day} (00:00 UTC): ${result.written} written.`);
    }),
  );

const inviteCommand = program.command('invites').description('Invite codes, for INVITE_ONLY=true deployments.');
inviteCommand
  .command('create')
  .description('Create invite codes and print them, one a line.')
  .option('-n, --count <n>', 'how many', integer('count', 1, 1000), 1)
  .action((options: { count: number }) =>
    withDatabase(async (database) => {
      for (const code of await new InvitesService(database).create(options.count)) console.log(code);
    }),
  );
inviteCommand
  .command('list')
  .description('List invite codes and who used them.')
  .action(() =>
    withDatabase(async (database) => {
      const rows = await database.db.select().from(invites).orderBy(invites.createdAt);
      for (const row of rows) console.log(`${row.code}\t${row.consumedBy === null ? 'unused' : `used by user ${row.consumedBy} at ${new Date(row.consumedAt ?? 0).toISOString()}`}`);
    }),
  );

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CliError || err instanceof ConfigError || err instanceof DataDirLockedError || err instanceof SeedLoadError || err instanceof SeedSourceError) {
    console.error(err.message);
  } else {
    console.error(err);
  }
  process.exitCode = 1;
}
