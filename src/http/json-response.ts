import type { Express, Response } from 'express';
import { stringifyJson } from '../common/json-text.js';

/**
 * Express's res.json, with the serialisation of common/json-text (registered documents are not
 * serialised again) and the body encoded once: res.send gets a Buffer, which its ETag, the read
 * cache and the socket share. Headers and status handling are Express's own.
 */
export function installJsonResponse(app: Express): void {
  app.response.json = function json(this: Response, body: unknown) {
    const text = stringifyJson(body);
    const type = this.get('Content-Type');
    // res.set adds the charset to a bare type, as it does for Express's own res.json.
    if (type === undefined) this.set('Content-Type', 'application/json');
    else if (!/;\s*charset=/i.test(type)) this.set('Content-Type', `${type}; charset=utf-8`);
    return this.send(text === undefined ? undefined : Buffer.from(text));
  };
}
