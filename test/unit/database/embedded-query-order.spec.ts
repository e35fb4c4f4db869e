import { PGlite } from '@electric-sql/pglite';
import { orderedPglite, PriorityGate, runAsRequest } from '../../../src/database/embedded-query-order.js';

/** A promise and the function that settles it. */
function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('the embedded database serves the oldest request first', () => {
  it('runs waiting turns by key (request start), ties in arrival order, after the running one', async () => {
    const gate = new PriorityGate();
    const order: string[] = [];
    const hold = deferred();
    const first = gate.run(async () => {
      await hold.promise;
      order.push('running');
    }, 50);
    const queued = [
      gate.run(async () => void order.push('t30'), 30),
      gate.run(async () => void order.push('t10'), 10),
      gate.run(async () => void order.push('t20a'), 20),
      gate.run(async () => void order.push('t20b'), 20),
    ];
    expect(gate.queued).toBe(4);
    hold.resolve();
    await Promise.all([first, ...queued]);
    expect(order).toEqual(['running', 't10', 't20a', 't20b', 't30']);
    expect(gate.queued).toBe(0);
  });

  it('passes results and errors through and frees the turn after an error', async () => {
    const gate = new PriorityGate();
    await expect(gate.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(gate.run(() => Promise.resolve(7))).resolves.toBe(7);
  });

  it('orders a real PGlite: a transaction keeps its turn, then the older request goes before the newer one', async () => {
    const raw = await PGlite.create();
    const db = orderedPglite(raw);
    try {
      const order: string[] = [];
      const inside = deferred();
      const release = deferred();
      const tx = db.transaction(async (t) => {
        await t.query('SELECT 1');
        inside.resolve();
        await release.promise;
        await t.query('SELECT 2'); // statements inside the transaction do not queue behind the others
        order.push('transaction');
      });
      await inside.promise;
      const newer = runAsRequest(2_000, () => db.query<{ n: number }>('SELECT 2 AS n').then((r) => (order.push('newer'), r.rows[0].n)));
      const older = runAsRequest(1_000, () => db.query<{ n: number }>('SELECT 1 AS n').then((r) => (order.push('older'), r.rows[0].n)));
      release.resolve();
      expect(await Promise.all([newer, older, tx])).toEqual([2, 1, undefined]);
      expect(order).toEqual(['transaction', 'older', 'newer']);
      // everything else is the instance itself
      expect(db.closed).toBe(false);
    } finally {
      await raw.close();
    }
  });
});
