import { Logger, type INestApplicationContext } from '@nestjs/common';
import path from 'node:path';
import type { AppConfig } from '../config/app-config.js';
import { backupOpenEmbedded } from '../database/backup.js';
import { embeddedDbDir, type Database } from '../database/database.js';
import { cliSocketPath } from '../cli-socket/protocol.js';
import { CliSocketServer } from '../cli-socket/socket-server.js';
import { CliError, runCliCommand, type CommandHost } from './cli-commands.js';

/**
 * Where a command sent by the CLI runs in the server: on the server's own application, whose
 * services the HTTP routes use, on its open database. Not a second application (CliModule) on
 * the same Database: starting one runs its startup hooks again inside a live server (the import
 * service's recovery would fail the server's running inline imports, as left by a dead process,
 * and `logger: false` would silence the server's Nest logger), and it would keep a second set of
 * caches. The server's application holds every module the commands use.
 */
function serverHost(app: INestApplicationContext, database: Database, config: AppConfig, cwd: string): CommandHost {
  return {
    resolvePath: (file) => path.resolve(cwd, file),
    config: () => config,
    // Migrated at the server's start; nothing to open or close per command.
    withServices: (fn) => fn(app),
    backupEmbedded: (file) => backupOpenEmbedded(database, file),
    restoreEmbedded: () =>
      Promise.reject(
        new CliError(
          `restore needs the server stopped: the running server (process ${process.pid}) has the embedded database ${embeddedDbDir(config.dataDir)} open, and restoring replaces it. Stop the server, run restore again, then start the server.`,
        ),
      ),
  };
}

/**
 * Listens on DATA_DIR/cli.sock for the CLI's commands (a server on the embedded database, which
 * it holds alone: the CLI cannot open it meanwhile) and runs them on app. Resolves with the
 * socket's server, or undefined (with a warning) when the socket cannot be opened: the CLI then
 * needs the server stopped, as before.
 */
export async function serveCliSocket(app: INestApplicationContext, database: Database, config: AppConfig): Promise<CliSocketServer | undefined> {
  const logger = new Logger('CliSocket');
  const socketPath = cliSocketPath(config.dataDir);
  try {
    return await CliSocketServer.listen(
      socketPath,
      (request, output) => runCliCommand(request.argv, output, serverHost(app, database, config, request.cwd)),
      logger,
    );
  } catch (err) {
    logger.warn(`The CLI socket ${socketPath} could not be opened (${(err as Error).message}): CLI commands need the server stopped.`);
    return undefined;
  }
}
