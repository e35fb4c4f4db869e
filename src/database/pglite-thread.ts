import type { PGlite, QueryOptions, Results } from '@electric-sql/pglite';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { PROJECT_ROOT } from '../common/project-root.js';

/**
 * The embedded engine's thread. It owns the PGlite instance and answers the main thread's calls:
 * `query` and `exec` (inside a held transaction when `tx` is given), `begin` and `end` of a
 * transaction, `listen`, `dump` and `close`. PGlite's own locks order the calls exactly as they
 * would be ordered in-process. Errors go back as their message and own fields (SQLSTATE `code`,
 * `constraint`…); notifications go back as they arrive, before the reply of the statement that
 * delivered them.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { PGlite } = require(workerData.modules.pglite);
const { pg_trgm } = require(workerData.modules.pgTrgm);
const identity = (value) => value;
const errorOf = (err) => {
  const fields = {};
  if (err && typeof err === 'object')
    for (const [key, value] of Object.entries(err))
      if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value;
  return { message: err instanceof Error ? err.message : String(err), name: err instanceof Error ? err.name : 'Error', fields };
};
const reply = (id, value, transfer) => parentPort.postMessage({ id, ok: true, value }, transfer);
const fail = (id, err) => parentPort.postMessage({ id, ok: false, error: errorOf(err) });
const optionsOf = (m) => {
  if (!m.rowMode && !m.raw) return undefined;
  const parsers = {};
  for (const oid of m.raw ?? []) parsers[oid] = identity;
  return { rowMode: m.rowMode, parsers };
};
(async () => {
  let db;
  try {
    const { dataDir, loadDataDir } = workerData;
    db = await PGlite.create({ dataDir, loadDataDir: loadDataDir && new Blob([loadDataDir]), extensions: { pg_trgm } });
  } catch (err) {
    parentPort.postMessage({ failed: errorOf(err) });
    return;
  }
  const held = new Map();
  const unlisteners = new Map();
  let nextTx = 1;
  const on = (m) => (m.tx === undefined ? db : held.get(m.tx)?.tx);
  const handle = async (m) => {
    switch (m.op) {
      case 'query': {
        const target = on(m);
        if (!target) throw new Error('The transaction has ended.');
        const { rows, fields, affectedRows } = await target.query(m.text, m.params, optionsOf(m));
        return { rows, fields, affectedRows };
      }
      case 'exec': {
        const target = on(m);
        if (!target) throw new Error('The transaction has ended.');
        return (await target.exec(m.text)).map(({ rows, fields, affectedRows }) => ({ rows, fields, affectedRows }));
      }
      case 'begin': {
        const tx = nextTx++;
        return new Promise((begun, beginFailed) => {
          const done = db.transaction(
            (handle) =>
              new Promise((commit, rollback) => {
                held.set(tx, { tx: handle, commit, rollback, done });
                begun(tx);
              }),
          );
          done.catch((err) => held.has(tx) || beginFailed(err));
        });
      }
      case 'end': {
        const entry = held.get(m.tx);
        if (!entry) throw new Error('The transaction has ended.');
        if (m.commit) entry.commit();
        else entry.rollback(new Error('rolled back'));
        try {
          await entry.done;
        } catch (err) {
          if (m.commit) throw err;
        } finally {
          held.delete(m.tx);
        }
        return undefined;
      }
      case 'listen': {
        if (!unlisteners.has(m.channel))
          unlisteners.set(m.channel, await db.listen(m.channel, (payload) => parentPort.postMessage({ channel: m.channel, payload })));
        return undefined;
      }
      case 'unlisten': {
        const unlisten = unlisteners.get(m.channel);
        unlisteners.delete(m.channel);
        await unlisten?.();
        return undefined;
      }
      case 'dump': {
        const bytes = await (await db.dumpDataDir(m.compression)).arrayBuffer();
        return { transfer: bytes };
      }
      case 'close':
        await db.close();
        return undefined;
    }
    throw new Error('Unknown call ' + m.op);
  };
  parentPort.on('message', (m) =>
    handle(m).then(
      (value) => (value && value.transfer ? reply(m.id, value.transfer, [value.transfer]) : reply(m.id, value)),
      (err) => fail(m.id, err),
    ),
  );
  parentPort.postMessage({ ready: true });
})();
`;

export interface PgliteThreadOptions {
  dataDir?: string;
  loadDataDir?: Blob;
}

interface Reply {
  id?: number;
  ok?: boolean;
  value?: unknown;
  error?: { message: string; name: string; fields: Record<string, unknown> };
  channel?: string;
  payload?: string;
  ready?: true;
  failed?: { message: string; name: string; fields: Record<string, unknown> };
}

/** An error raised in the engine's thread, with its fields (SQLSTATE `code`, `constraint`…). */
function errorFrom(error: { message: string; name: string; fields: Record<string, unknown> }): Error {
  const err = Object.assign(new Error(error.message), error.fields);
  if (error.name !== 'Error') Object.defineProperty(err, 'name', { value: error.name, configurable: true, writable: true });
  return err;
}

type Params = unknown[] | undefined;

/** The part of PGlite's interface that Drizzle's PGlite driver and Database use. */
export interface ThreadQueryable {
  query<T>(text: string, params?: Params, options?: QueryOptions): Promise<Results<T>>;
  exec(text: string): Promise<Results[]>;
}

export interface ThreadTransaction extends ThreadQueryable {
  rollback(): Promise<void>;
  readonly closed: boolean;
}

/**
 * PGlite in a worker thread of its own: the engine's work (WebAssembly PostgreSQL, protocol and
 * row parsing) runs beside the event loop instead of on it, so a busy embedded database does not
 * stall the HTTP server's other requests. It offers what Drizzle's PGlite driver calls (query,
 * exec, transaction) and what Database needs (listen, dumpDataDir, close); rows cross the thread
 * boundary by structured clone, so they arrive exactly as PGlite built them.
 */
export class PgliteThread implements ThreadQueryable {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (err: Error) => void }>();
  private readonly listeners = new Map<string, Set<(payload: string) => void>>();
  private stopped: Error | undefined;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (m: Reply) => this.onReply(m));
    worker.on('error', (err) => this.stop(new Error(`The embedded database's thread failed: ${err.message}`)));
    worker.on('exit', (code) => this.stop(new Error(`The embedded database's thread stopped (exit code ${code}).`)));
  }

  static async start(options: PgliteThreadOptions): Promise<PgliteThread> {
    const require = createRequire(path.join(PROJECT_ROOT, 'package.json'));
    const modules = { pglite: require.resolve('@electric-sql/pglite'), pgTrgm: require.resolve('@electric-sql/pglite/contrib/pg_trgm') };
    const loadDataDir = options.loadDataDir ? await options.loadDataDir.arrayBuffer() : undefined;
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { modules, dataDir: options.dataDir, loadDataDir },
      transferList: loadDataDir ? [loadDataDir] : [],
    });
    await new Promise<void>((resolve, reject) => {
      const onMessage = (m: Reply) => {
        if (!m.ready && !m.failed) return;
        worker.off('message', onMessage);
        worker.off('error', reject);
        if (m.ready) resolve();
        else reject(errorFrom(m.failed!));
      };
      worker.on('message', onMessage);
      worker.once('error', reject);
    }).catch(async (err: unknown) => {
      await worker.terminate();
      throw err;
    });
    return new PgliteThread(worker);
  }

  private onReply(m: Reply): void {
    if (m.channel !== undefined) {
      for (const listener of this.listeners.get(m.channel) ?? []) listener(m.payload ?? '');
      return;
    }
    if (m.id === undefined) return;
    const call = this.pending.get(m.id);
    if (!call) return;
    this.pending.delete(m.id);
    if (m.ok) call.resolve(m.value);
    else call.reject(errorFrom(m.error!));
  }

  private stop(err: Error): void {
    if (this.stopped) return;
    this.stopped = err;
    for (const call of this.pending.values()) call.reject(err);
    this.pending.clear();
  }

  private call<T>(message: Record<string, unknown>): Promise<T> {
    if (this.stopped) return Promise.reject(this.stopped);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.worker.postMessage({ ...message, id });
    });
  }

  query<T>(text: string, params?: Params, options?: QueryOptions): Promise<Results<T>> {
    return this.run<T>(text, params, options, undefined);
  }

  exec(text: string): Promise<Results[]> {
    return this.runExec(text, undefined);
  }

  /** Statements without parameters, inside the held transaction tx when given. */
  private runExec(text: string, tx: number | undefined): Promise<Results[]> {
    return this.call<Results[]>({ op: 'exec', text, tx });
  }

  /** A query, inside the held transaction tx when given. */
  private run<T>(text: string, params: Params, options: QueryOptions | undefined, tx: number | undefined): Promise<Results<T>> {
    const raw = options?.parsers ? Object.keys(options.parsers).map(Number) : undefined;
    const result = this.call<Results<T>>({ op: 'query', text, params, rowMode: options?.rowMode, raw, tx });
    return raw?.length ? result.then((r) => applyParsers(r, options!.parsers!)) : result;
  }

  /**
   * Runs fn in one transaction, held open in the engine's thread until fn settles: committed when
   * it resolves, rolled back when it throws. Other calls wait for it, as with PGlite in-process.
   */
  async transaction<T>(fn: (tx: ThreadTransaction) => Promise<T>): Promise<T> {
    const id = await this.call<number>({ op: 'begin' });
    let closed = false;
    const end = (commit: boolean) => {
      if (closed) return Promise.resolve();
      closed = true;
      return this.call<void>({ op: 'end', tx: id, commit });
    };
    const tx: ThreadTransaction = {
      query: <R>(text: string, params?: Params, options?: QueryOptions) => this.run<R>(text, params, options, id),
      exec: (text: string) => this.runExec(text, id),
      rollback: () => end(false),
      get closed() {
        return closed;
      },
    };
    let result: T;
    try {
      result = await fn(tx);
    } catch (err) {
      await end(false).catch(() => undefined);
      throw err;
    }
    await end(true);
    return result;
  }

  /** Calls onMessage with each notification on channel; returns the way to stop. */
  async listen(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>> {
    let listeners = this.listeners.get(channel);
    if (!listeners) this.listeners.set(channel, (listeners = new Set()));
    listeners.add(onMessage);
    if (listeners.size === 1)
      await this.call({ op: 'listen', channel }).catch((err: unknown) => {
        this.listeners.delete(channel);
        throw err;
      });
    return async () => {
      if (!listeners.delete(onMessage) || listeners.size > 0) return;
      this.listeners.delete(channel);
      await this.call({ op: 'unlisten', channel });
    };
  }

  /** The data directory as a tarball (gzipped or not), as PGlite's dumpDataDir gives it. */
  async dumpDataDir(compression: 'gzip' | 'none' = 'gzip'): Promise<Blob> {
    return new Blob([await this.call<ArrayBuffer>({ op: 'dump', compression })]);
  }

  async close(): Promise<void> {
    try {
      if (!this.stopped) await this.call({ op: 'close' });
    } finally {
      this.stop(new Error('The embedded database is closed.'));
      await this.worker.terminate();
    }
  }

  /** This object as the PGlite client Drizzle's PGlite driver takes (it calls query and transaction only). */
  asDrizzleClient(): PGlite {
    return this as unknown as PGlite;
  }
}

/** Applies the caller's parsers to the columns of their types (the thread left those values as text). */
function applyParsers<T>(result: Results<T>, parsers: NonNullable<QueryOptions['parsers']>): Results<T> {
  const columns = result.fields.flatMap((f, i) => (parsers[f.dataTypeID] ? [{ i, name: f.name, parse: parsers[f.dataTypeID] }] : []));
  if (columns.length === 0) return result;
  for (const row of result.rows as unknown as Record<string | number, unknown>[])
    for (const c of columns) {
      const key = Array.isArray(row) ? c.i : c.name;
      const value = row[key];
      if (typeof value === 'string') row[key] = c.parse(value);
    }
  return result;
}
