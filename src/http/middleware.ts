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
