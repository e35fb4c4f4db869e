import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { types } from '@electric-sql/pglite';
import { PgliteThread } from '../../src/database/pglite-thread.js';

/**
 * The embedded engine in its own thread, through the calls Drizzle and Database make: rows and
 * errors as PGlite gives them, transactions that hold off every other call until they end and
 * that commit or roll back with their callback, notifications ahead of the statement that sent
 * them, dumps that load back, and an event loop that keeps turning during a long statement.
 */
describe('PgliteThread', () => {
  let thread: PgliteThread;

  beforeAll(async () => {
    thread = await PgliteThread.start({});
    await thread.exec(`CREATE TABLE t (id int PRIMARY KEY, doc jsonb, at timestamptz, n int8); CREATE TABLE log (line text)`);
  });
  afterAll(() => thread.close());

  it('gives rows typed as PGlite types them, in object or array mode, with the caller parsers applied', async () => {
    await thread.query(`INSERT INTO t VALUES ($1, $2, $3, $4)`, [1, { a: [1, 'x', null] }, '2026-11-24T10:00:00Z', 5]);
    const objects = await thread.query<{ id: number; doc: unknown; n: number }>(`SELECT id, doc, n FROM t`);
    expect(objects.rows).toStrictEqual([{ id: 1, doc: { a: [1, 'x', null] }, n: 5 }]);
    expect(objects.fields.map((f) => f.name)).toEqual(['id', 'doc', 'n']);

    const arrays = await thread.query(`SELECT id, at FROM t`, [], { rowMode: 'array', parsers: { [types.TIMESTAMPTZ]: (v: string) => `text:${v}` } });
    expect(arrays.rows).toStrictEqual([[1, 'text:2026-11-24 10:00:00+00']]);
    const updated = await thread.query(`UPDATE t SET n = n + 1`);
    expect(updated.affectedRows).toBe(1);
  });

  it('gives an error with its SQLSTATE fields', async () => {
    const err = (await thread.query(`INSERT INTO t VALUES (1)`).catch((e: unknown) => e)) as Error & { code?: string; constraint?: string };
    expect(err).toBeInstanceOf(Error);
    expect(err.message).toMatch(/duplicate key/);
    expect(err.code).toBe('23505');
    expect(err.constraint).toBe('t_pkey');
    // The engine goes on serving after an error.
    expect((await thread.query(`SELECT 1 AS one`)).rows).toEqual([{ one: 1 }]);
  });

  it('commits a transaction whose callback resolves and rolls back one whose callback throws', async () => {
    await thread.transaction(async (tx) => {
      await tx.query(`INSERT INTO t (id) VALUES (10)`);
      await tx.query(`INSERT INTO t (id) VALUES (11)`);
    });
    await expect(
      thread.transaction(async (tx) => {
        await tx.query(`INSERT INTO t (id) VALUES (12)`);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    // A statement that fails inside rolls back everything before it.
    await expect(
      thread.transaction(async (tx) => {
        await tx.query(`INSERT INTO t (id) VALUES (13)`);
        await tx.query(`INSERT INTO t (id) VALUES (10)`);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    const { rows } = await thread.query<{ id: number }>(`SELECT id FROM t WHERE id >= 10 ORDER BY id`);
    expect(rows.map((r) => r.id)).toEqual([10, 11]);
  });

  it('holds every other call until an open transaction ends', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const order: string[] = [];
    const tx = thread.transaction(async (t) => {
      await t.query(`INSERT INTO log VALUES ('in tx 1')`);
      order.push('tx 1');
      await gate;
      await t.query(`INSERT INTO log VALUES ('in tx 2')`);
      order.push('tx 2');
    });
    await new Promise((r) => setTimeout(r, 20));
    const outside = thread.query(`INSERT INTO log VALUES ('outside')`).then(() => order.push('outside'));
    await new Promise((r) => setTimeout(r, 50));
    expect(order).toEqual(['tx 1']);
    release();
    await Promise.all([tx, outside]);
    expect(order).toEqual(['tx 1', 'tx 2', 'outside']);
    const { rows } = await thread.query<{ line: string }>(`SELECT line FROM log`);
    expect(rows.map((r) => r.line)).toEqual(['in tx 1', 'in tx 2', 'outside']);
  });

  it("delivers a transaction's notifications before its commit returns, until unlistened", async () => {
    const heard: string[] = [];
    const unlisten = await thread.listen('changes', (payload) => heard.push(payload));
    await thread.transaction(async (tx) => {
      await tx.query(`SELECT pg_notify('changes', 'one')`);
      expect(heard).toEqual([]);
    });
    expect(heard).toEqual(['one']);
    await unlisten();
    await thread.query(`SELECT pg_notify('changes', 'two')`);
    expect(heard).toEqual(['one']);
  });

  it('dumps a data directory that a new thread loads', async () => {
    const dump = await thread.dumpDataDir('gzip');
    const copy = await PgliteThread.start({ loadDataDir: dump });
    try {
      const { rows } = await copy.query<{ id: number }>(`SELECT id FROM t ORDER BY id`);
      expect(rows.map((r) => r.id)).toEqual([1, 10, 11]);
    } finally {
      await copy.close();
    }
  });

  it('keeps the event loop turning while the engine works', async () => {
    let settled = false;
    const long = thread.query(`SELECT count(*) AS n FROM generate_series(1, 3000000) g, LATERAL (SELECT g * 2) x`).finally(() => (settled = true));
    await new Promise((r) => setTimeout(r, 10));
    // In-process, the engine would hold the thread until the statement ends, and this timer could not fire first.
    expect(settled).toBe(false);
    expect((await long).rows).toEqual([{ n: 3_000_000 }]);
  });

  it('fails pending and later calls with a clear message when the thread dies', async () => {
    const other = await PgliteThread.start({});
    const pending = other.query(`SELECT pg_sleep(5)`);
    await (other as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
    await expect(pending).rejects.toThrow("The embedded database's thread stopped");
    await expect(other.query(`SELECT 1`)).rejects.toThrow("The embedded database's thread stopped");
    await other.close();
  });

  it('refuses calls once closed', async () => {
    const other = await PgliteThread.start({});
    await other.close();
    await expect(other.query(`SELECT 1`)).rejects.toThrow('The embedded database is closed.');
  });
});
