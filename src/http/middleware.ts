import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Runs an Express middleware so that an error it passes to next() rejects instead, which sends
 * it through Nest's middleware proxy to the global exception filter (body-parser's 400 and 413).
 */
export function throughNest(handler: RequestHandler) {
  return (req: Request, res: Response, next: NextFunction): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      handler(req, res, (err?: unknown) => (err ? reject(err) : resolve()));
    }).then(() => next());
}

/** An Express-style step: next() goes on, next(err) fails; a step may be async (its rejection fails too). */
type Step<R extends Request> = (req: R, res: Response, next: (err?: unknown) => void) => unknown;

/**
 * Runs the steps as one middleware. Nest mounts each middleware it is given as router layers of its
 * own, each with a per-request check, and every request walks them all before its route's layer;
 * composed, the API's seven steps cost one. An error a step throws, rejects with or passes to
 * next() rejects the returned promise, which sends it through Nest's middleware proxy to the global
 * exception filter, as throughNest does; the later steps do not run. A step that answers without
 * calling next() (the read cache's hit) leaves the promise pending, as the request is done.
 */
export function composeMiddleware<R extends Request>(steps: readonly Step<R>[]) {
  return (req: R, res: Response, next: NextFunction): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      let index = 0;
      const step = (err?: unknown): void => {
        if (err) return reject(err);
        const current = steps[index++];
        if (!current) {
          resolve();
          return next();
        }
        try {
          const result = current(req, res, step);
          if (result instanceof Promise) result.catch(reject);
        } catch (e) {
          reject(e);
        }
      };
      step();
    });
}
