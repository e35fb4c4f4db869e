import { HttpException, type INestApplicationContext } from '@nestjs/common';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { inspect } from 'node:util';
import { ConfigError, type AppConfig } from '../config/app-config.js';
import { DataDirLockedError } from '../database/data-dir-lock.js';
import { BackupError } from '../database/backup.js';
import { InvitesService } from '../auth/invites.service.js';
import type { CommandOutput } from '../cli-socket/command-output.js';
import { SERVER_VERSION } from '../status/version.js';
import { SeedLoader, SeedLoadError } from '../seeds/seed-loader.js';
import { SeedSource, SeedSourceError, DEFAULT_SEED_URL } from '../seeds/seed-source.js';
import { formatSeedReport } from '../seeds/seed-report.js';
import { gamesWithCatalogChanges, OrphansService } from '../imports/orphans.service.js';
import { SnapshotsService } from '../ugpt/snapshots.service.js';
import { RerankService } from '../scoring/pbs/rerank.service.js';
import { findGame, GAMES } from '../game-support/registry.js';
import { UsersService } from '../users/users.service.js';
import { NotificationsService } from '../notifications/notifications.service.js';
import { AdminService, type Actor } from '../admin/admin.service.js';
import { SecretsRotationService } from '../secrets/secrets-rotation.service.js';
import { SecretsUnavailableError } from '../secrets/secret-cipher.js';
import type { RecalcDto } from '../admin/dto/admin.dto.js';

/** A command's refusal: its message is printed alone, and it exits 1. */
export class CliError extends Error {}

export interface ServiceOptions {
  /** The command ends login sessions (deleting accounts): with REDIS_URL they live in Redis. */
  loginSessions?: boolean;
}

/**
 * Where a command runs: in the CLI's own process, which opens the database for the command (the
 * embedded one only while no server runs: processes/cli-local.ts), or in the server running on the
 * embedded database, for a CLI that sent the command over the server's socket, on the server's
 * own services and open database (processes/cli-in-server.ts).
 */
export interface CommandHost {
  /** A path given in the arguments, as this host must open it: in the server, resolved against the CLI's working directory. */
  resolvePath(file: string): string;
  /** The configuration the command runs with (the server's, in the server); throws ConfigError. */
  config(): AppConfig;
  /** Runs fn with the application's services (a migrated database behind them). */
  withServices<T>(fn: (services: INestApplicationContext) => Promise<T>, options?: ServiceOptions): Promise<T>;
  /** Writes the embedded database to file (resolved). */
  backupEmbedded(file: string): Promise<{ bytes: number }>;
  /** Replaces the embedded database with the backup in file (resolved); returns its directory. */
  restoreEmbedded(file: string, options: { force: boolean }): Promise<string>;
}

function integer(name: string, min: number, max: number) {
  return (value: string) => {
    if (!/^-?\d+$/.test(value) || Number(value) < min || Number(value) > max)
      throw new InvalidArgumentError(`${name} must be an integer from ${min} to ${max}.`);
    return Number(value);
  };
}

/** Longest announcement title. */
const ANNOUNCEMENT_TITLE_MAX = 500;

const CLI_ACTOR: Actor = { userID: null, via: 'cli' };

/** The commands, writing to out and running on host. A new one for every run: commander keeps its parse state in it. */
function buildProgram(out: CommandOutput, host: CommandHost): Command {
  const print = (line: string) => out.writeOut(`${line}\n`);
  const withServices = host.withServices.bind(host);

  // Set before the commands are added, which inherit them: help, version and parse errors go to `out`, and end in a CommanderError.
  const program = new Command()
    .exitOverride()
    .configureOutput({
      writeOut: (text) => out.writeOut(text),
      writeErr: (text) => out.writeErr(text),
      getOutHelpWidth: () => (out.stdout.isTTY ? out.stdout.columns : undefined) as number,
      getErrHelpWidth: () => (out.stderr.isTTY ? out.stderr.columns : undefined) as number,
      getOutHasColors: () => out.stdout.hasColors,
      getErrHasColors: () => out.stderr.hasColors,
    })
    .name('npm run cli --')
    .description(
      'Administration commands. In embedded mode (no DATABASE_URL), while the server runs, they run inside it (sent through DATA_DIR/cli.sock); otherwise this process opens the database.',
    )
    .version(SERVER_VERSION);

  program
    .command('migrate')
    .description('Apply the database migrations (the server also applies them at boot).')
    .action(() => withServices(async () => print('Migrations applied.')));

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
        print(`Announcement sent to ${sent} user(s): ${title}`);
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
        print(`${row.username} (id ${row.id}) now has auth level ${level}.`);
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
        const given = new SeedSource(options.from);
        const source = given.isUrl ? given : new SeedSource(host.resolvePath(options.from));
        const report = await services.get(SeedLoader).load(source, { games, progress: out.progress() });
        for (const line of formatSeedReport(report)) print(line);
        // New or changed songs and charts may be what earlier orphaned scores were waiting for.
        const changedGames = gamesWithCatalogChanges(report);
        if (changedGames.length) {
          const retried = await services.get(OrphansService).retryForGames(changedGames);
          if (retried.processed)
            print(
              `Orphaned scores retried: ${retried.processed} (${retried.success} now imported, ${retried.removed} dropped as invalid or duplicate, ${retried.failed} still unmatched).`,
            );
          if (retried.skippedUsers)
            print(
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
        print(`Ranked the PBs of ${result.charts} chart(s): ${result.changed} PB(s) changed rank.`);
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
        print(`Snapshot of ${day} (00:00 UTC): ${result.written} written.`);
      }),
    );

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
          const progress = out.progress();
          progress.phase('Recalculating scores', await admin.countScores(filter));
          let shown = 0;
          const total = await admin.recalc(CLI_ACTOR, filter, (done) => {
            progress.advance(done - shown);
            shown = done;
          });
          progress.done();
          print(`Recalculated ${total} score(s).`);
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
          print(`Deleted ${user.username} (id ${user.id}) and everything theirs.`);
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
          print(
            `${new Date(e.timestamp).toISOString()}\t${e.action}\t${e.userID === null ? e.via : `user ${e.userID} (${e.via})`}\t${JSON.stringify(e.params)}`,
          );
      }),
    );

  /** With DATABASE_URL, backup and restore point to PostgreSQL's own tools instead. */
  const requireEmbedded = (command: string) => {
    if (host.config().DATABASE_URL)
      throw new CliError(
        `${command} is for the embedded database. With DATABASE_URL, use PostgreSQL's tools: pg_dump --format=custom --file=<file> "$DATABASE_URL" to back up, pg_restore --clean --if-exists --no-owner --dbname="$DATABASE_URL" <file> to restore.`,
      );
  };

  program
    .command('backup')
    .description(
      'Write the embedded database (DATA_DIR/db) to a file. While the server runs, the server writes it from its open database (its queries wait meanwhile).',
    )
    .argument('<file>', 'the backup file to write (a gzipped PGlite data directory)')
    .action(async (file: string) => {
      requireEmbedded('backup');
      const { bytes } = await host.backupEmbedded(host.resolvePath(file));
      print(`Backed up the embedded database to ${file} (${bytes} bytes).`);
    });

  program
    .command('restore')
    .description('Replace the embedded database (DATA_DIR/db) with a backup. Run it with the server stopped.')
    .argument('<file>', 'a file written by `backup`')
    .option('--force', 'replace a database that DATA_DIR/db already holds')
    .action(async (file: string, options: { force?: boolean }) => {
      requireEmbedded('restore');
      const dbDir = await host.restoreEmbedded(host.resolvePath(file), { force: options.force === true });
      print(`Restored ${file} into ${dbDir}. The server applies newer migrations when it starts.`);
    });

  const inviteCommand = program.command('invites').description('Invite codes, for INVITE_ONLY=true deployments.');
  inviteCommand
    .command('create')
    .description('Create invite codes and print them, one a line.')
    .option('-n, --count <n>', 'how many', integer('count', 1, 1000), 1)
    .action((options: { count: number }) =>
      withServices(async (services) => {
        for (const code of await services.get(InvitesService).create(options.count)) print(code);
      }),
    );
  inviteCommand
    .command('list')
    .description('List invite codes and who used them.')
    .action(() =>
      withServices(async (services) => {
        for (const row of await services.get(InvitesService).list())
          print(`${row.code}\t${row.consumedBy === null ? 'unused' : `used by user ${row.consumedBy} at ${new Date(row.consumedAt ?? 0).toISOString()}`}`);
      }),
    );

  const secretsCommand = program.command('secrets').description('Secrets stored encrypted with SECRETS_KEY (API client secrets).');
  secretsCommand
    .command('rotate')
    .description(
      'Re-encrypt every stored secret made with a previous key (SECRETS_KEY_PREVIOUS, or the embedded key file DATA_DIR/secrets.key from before SECRETS_KEY was set) with the current SECRETS_KEY. Safe to re-run; the previous keys can go once it reports no failure.',
    )
    .action(() =>
      withServices(async (services) => {
        const report = await services.get(SecretsRotationService).rotate();
        print(
          `Key ${report.keyID}: ${report.reencrypted} secret(s) re-encrypted, ${report.current} already used it${report.skipped ? `, ${report.skipped} changed meanwhile (already with it)` : ''}.`,
        );
        if (report.failed.length)
          throw new CliError(
            `${report.failed.length} secret(s) could not be decrypted with any configured key; add the key they were made with to SECRETS_KEY_PREVIOUS and run this again:\n${report.failed.map((f) => `  ${f.where}: ${f.reason}`).join('\n')}`,
          );
      }),
    );

  return program;
}

/**
 * Runs the command line argv (without `node cli.js`) on host, writing to out; resolves with its
 * exit code. Refusals print their message alone; anything unexpected prints in full.
 */
export async function runCliCommand(argv: readonly string[], out: CommandOutput, host: CommandHost): Promise<number> {
  try {
    await buildProgram(out, host).parseAsync([...argv], { from: 'user' });
    return 0;
  } catch (err) {
    // Help, version and parse errors: commander has written them already.
    if (err instanceof CommanderError) return err.exitCode;
    if (
      err instanceof CliError ||
      err instanceof ConfigError ||
      err instanceof DataDirLockedError ||
      err instanceof BackupError ||
      err instanceof SeedLoadError ||
      err instanceof SeedSourceError ||
      err instanceof SecretsUnavailableError ||
      err instanceof HttpException
    ) {
      out.writeErr(`${err.message}\n`);
    } else {
      out.writeErr(`${inspect(err, { colors: out.stderr.hasColors })}\n`);
    }
    return 1;
  }
}
