import { ConfigError, type AppConfig } from './config/app-config.js';
import { DataDirLockedError } from './database/data-dir-lock.js';
import { Database, embeddedDbDir } from './database/database.js';

/** The configured database: PostgreSQL at DATABASE_URL (with its replicas for the API server), else PGlite in DATA_DIR/db. */
export function openConfiguredDatabase(config: AppConfig, options: { replicas?: boolean } = {}): Promise<Database> {
  return config.DATABASE_URL
    ? Database.open({
        url: config.DATABASE_URL,
        poolSize: config.DATABASE_POOL_SIZE,
        sqlLogFile: config.SQL_LOG_FILE,
        // Only the API server reads for requests; workers and the CLI write, on the primary.
        replicaUrls: options.replicas ? config.replicaUrls : undefined,
        replicaMaxLagMs: config.REPLICA_MAX_LAG_MS,
      })
    : Database.open({ dataDir: embeddedDbDir(config.dataDir), sqlLogFile: config.SQL_LOG_FILE });
}

/** Runs a process entry point; configuration and lock errors end it with their message and exit code 1, without a stack trace. */
export async function runMain(main: () => Promise<void>): Promise<void> {
  try {
    await main();
  } catch (err) {
    if (err instanceof ConfigError || err instanceof DataDirLockedError) {
      console.error(err.message);
    } else {
      console.error(err);
    }
    process.exit(1);
  }
}
