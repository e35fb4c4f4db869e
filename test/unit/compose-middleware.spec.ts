import { describe, expect, it } from '@jest/globals';
import type { Request, Response } from 'express';
import { composeMiddleware } from '../../src/http/middleware.js';

type Next = (err?: unknown) => void;
const req = {} as Request;
const res = {} as Response;

/** Runs the composed steps once: what reached the route (the final next), and how the promise settled. */
async function run(steps: ((req: Request, res: Response, next: Next) => unknown)[]) {
  let routed = false;
  const promise = composeMiddleware(steps)(req, res, () => void (routed = true));
  const settled = await Promise.race([
    promise.then(
      () => 'resolved',
      (err: Error) => `rejected: ${err.message}`,
    ),
    new Promise((resolve) => setTimeout(() => resolve('pending'), 20)),
  ]);
  return { routed, settled };
}

describe('composeMiddleware', () => {
  it('runs the steps in order, synchronous and async, then the route', async () => {
    const order: string[] = [];
    const result = await run([
      (_q, _s, next) => (order.push('a'), next()),
      async (_q, _s, next) => {
        await new Promise((r) => setTimeout(r, 1));
        order.push('b');
        next();
      },
      (_q, _s, next) => (order.push('c'), next()),
    ]);
    expect(order).toEqual(['a', 'b', 'c']);
    expect(result).toEqual({ routed: true, settled: 'resolved' });
  });

  it.each([
    ['passed to next()', (_q: Request, _s: Response, next: Next) => next(new Error('bad body'))],
    [
      'thrown',
      () => {
        throw new Error('bad body');
      },
    ],
    ['rejected', () => Promise.reject(new Error('bad body'))],
  ])('rejects with an error %s, and runs neither the later steps nor the route', async (_how, failing) => {
    let later = false;
    const result = await run([(_q, _s, next) => next(), failing, (_q, _s, next) => ((later = true), next())]);
    expect(result).toEqual({ routed: false, settled: 'rejected: bad body' });
    expect(later).toBe(false);
  });

  it('stops at a step that answers without calling next (a read cache hit)', async () => {
    let later = false;
    const result = await run([async () => undefined, (_q, _s, next) => ((later = true), next())]);
    expect(result).toEqual({ routed: false, settled: 'pending' });
    expect(later).toBe(false);
  });

  it('keeps what a step runs next() inside (an AsyncLocalStorage context) for the rest', async () => {
    const { AsyncLocalStorage } = await import('node:async_hooks');
    const store = new AsyncLocalStorage<string>();
    let seen: string | undefined;
    let routedIn: string | undefined;
    await new Promise<void>((done) => {
      void composeMiddleware([(_q, _s, next: Next) => store.run('replica', () => next()), (_q, _s, next: Next) => ((seen = store.getStore()), next())])(
        req,
        res,
        () => ((routedIn = store.getStore()), done()),
      );
    });
    expect(seen).toBe('replica');
    expect(routedIn).toBe('replica');
  });
});
