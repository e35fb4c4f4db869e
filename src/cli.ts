import 'reflect-metadata';
import { loadConfig, type AppConfig } from './config/app-config.js';
import { cliSocketPath } from './cli-socket/protocol.js';
import { CliSocketError, requestFor, runInServer } from './cli-socket/socket-client.js';

/**
 * `npm run cli`. On the embedded database (no DATABASE_URL), a server running on this DATA_DIR
 * holds the database alone: the command is sent to it through its socket (DATA_DIR/cli.sock),
 * runs there on the server's application, and its output (progress bars included) and exit code
 * come back here. When no server answers there, or with DATABASE_URL, this process opens the
 * database itself (processes/cli-local.ts, loaded only then: it is most of the start-up time).
 */

/** The socket of a server that may run on the embedded database; undefined with DATABASE_URL (or a configuration the command itself will report). */
function embeddedServerSocket(): string | undefined {
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch {
    return undefined;
  }
  return config.DATABASE_URL ? undefined : cliSocketPath(config.dataDir);
}

async function main(argv: string[]): Promise<number> {
  const socketPath = embeddedServerSocket();
  if (socketPath) {
    try {
      const code = await runInServer(socketPath, requestFor(argv));
      if (code !== undefined) return code;
    } catch (err) {
      if (!(err instanceof CliSocketError)) throw err;
      console.error(err.message);
      return 1;
    }
  }
  const { runInThisProcess } = await import('./processes/cli-local.js');
  return runInThisProcess(argv);
}

process.exitCode = await main(process.argv.slice(2));
