import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

/**
 * A PostgreSQL primary and a streaming replica of it (PostgreSQL's own replication: initdb,
 * pg_basebackup -R, pg_ctl), each in a temporary data directory on a free port of 127.0.0.1, for
 * tests and the fault suite. Needs PostgreSQL's server binaries (/usr/lib/postgresql/<n>/bin):
 * `replicaBinaries()` is undefined without them, and tests skip. As root, the servers run as the
 * `postgres` user (PostgreSQL refuses root).
 */
export interface PgReplicaCluster {
  /** postgres://postgres@127.0.0.1:<port>/postgres on the primary. */
  primaryUrl: string;
  replicaUrl: string;
  /** Stops the replica (fast shutdown) / starts it again; it resumes streaming from where it was. */
  stopReplica(): Promise<void>;
  startReplica(): Promise<void>;
  /** pg_wal_replay_pause() / pg_wal_replay_resume() on the replica: it keeps receiving WAL but applies none. */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** Waits until the replica has replayed everything the primary had written when called. */
  waitForReplay(timeoutMs?: number): Promise<void>;
  /** Stops both servers and removes their directories. */
  close(): Promise<void>;
}

/** The directory of PostgreSQL's server binaries (the newest installed), or undefined. */
export function replicaBinaries(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return undefined;
  const versions = fs
    .readdirSync(root)
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a));
  for (const v of versions) {
    const bin = path.join(root, v, 'bin');
    if (['initdb', 'pg_ctl', 'pg_basebackup', 'postgres'].every((b) => fs.existsSync(path.join(bin, b)))) return bin;
  }
  return undefined;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function startPrimaryWithReplica(): Promise<PgReplicaCluster> {
  const bin = replicaBinaries();
  if (!bin) throw new Error('PostgreSQL server binaries not found under /usr/lib/postgresql/*/bin');
  const asRoot = process.getuid?.() === 0;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'st-pg-cluster-'));
  const primaryDir = path.join(root, 'primary');
  const replicaDir = path.join(root, 'replica');
  if (asRoot) {
    fs.chmodSync(root, 0o777);
    await run('chown', ['postgres:postgres', root]);
  }
  /** Runs a PostgreSQL binary, as the postgres user when this process is root. */
  const pgBin = (name: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', path.join(bin, name), ...args]) : run(path.join(bin, name), args);

  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  const url = (port: number) => `postgres://postgres@127.0.0.1:${port}/postgres`;
  const serverOptions = (port: number) =>
    `-c port=${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${root} -c wal_level=replica -c max_wal_senders=5 -c hot_standby=on -c fsync=off -c synchronous_commit=on -c shared_buffers=32MB -c max_connections=60 -c wal_receiver_status_interval=1s -c max_standby_streaming_delay=5s`;
  const log = (name: string) => path.join(root, `${name}.log`);
  const start = (dir: string, port: number, name: string) =>
    pgBin('pg_ctl', ['-D', dir, '-l', log(name), '-o', serverOptions(port), '-w', '-t', '60', 'start']);
  const stop = (dir: string) => pgBin('pg_ctl', ['-D', dir, '-m', 'fast', '-w', '-t', '60', 'stop']);

  let primaryStarted = false;
  let replicaStarted = false;
  const close = async () => {
    if (replicaStarted) await stop(replicaDir).catch(() => undefined);
    if (primaryStarted) await stop(primaryDir).catch(() => undefined);
    replicaStarted = primaryStarted = false;
    fs.rmSync(root, { recursive: true, force: true });
  };
  try {
    await pgBin('initdb', ['-D', primaryDir, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
    fs.appendFileSync(path.join(primaryDir, 'pg_hba.conf'), '\nhost replication all 127.0.0.1/32 trust\n');
    await start(primaryDir, primaryPort, 'primary');
    primaryStarted = true;
    await pgBin('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(primaryPort),
      '-U',
      'postgres',
      '-D',
      replicaDir,
      '-R',
      '-X',
      'stream',
      '--checkpoint=fast',
      '--no-sync',
    ]);
    await start(replicaDir, replicaPort, 'replica');
    replicaStarted = true;
  } catch (err) {
    await close();
    throw err;
  }

  const onReplica = async (query: string) => {
    const client = new pg.Client({ connectionString: url(replicaPort) });
    await client.connect();
    try {
      return (await client.query(query)).rows as Record<string, unknown>[];
    } finally {
      await client.end();
    }
  };
  return {
    primaryUrl: url(primaryPort),
    replicaUrl: url(replicaPort),
    stopReplica: async () => {
      await stop(replicaDir);
      replicaStarted = false;
    },
    startReplica: async () => {
      await start(replicaDir, replicaPort, 'replica');
      replicaStarted = true;
    },
    pauseReplay: async () => void (await onReplica('SELECT pg_wal_replay_pause()')),
    resumeReplay: async () => {
      // Replay that resumes after a pause longer than max_standby_streaming_delay cancels the
      // queries its WAL conflicts with at once, this session's too, once the resume has taken
      // effect (40001): the pause state says whether it did.
      for (let attempt = 1; ; attempt++) {
        try {
          await onReplica('SELECT pg_wal_replay_resume()');
          return;
        } catch (err) {
          if ((err as { code?: string }).code !== '40001' || attempt >= 5) throw err;
          const [row] = await onReplica('SELECT pg_get_wal_replay_pause_state() AS state');
          if (row.state === 'not paused') return;
        }
      }
    },
    waitForReplay: async (timeoutMs = 10_000) => {
      const primary = new pg.Client({ connectionString: url(primaryPort) });
      await primary.connect();
      const target = ((await primary.query('SELECT pg_current_wal_insert_lsn()::text AS lsn')).rows[0] as { lsn: string }).lsn;
      await primary.end();
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const [row] = await onReplica(`SELECT pg_last_wal_replay_lsn() >= '${target}'::pg_lsn AS done`);
        if (row.done) return;
        if (Date.now() > deadline) throw new Error(`The replica did not replay up to ${target} within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close,
  };
}
