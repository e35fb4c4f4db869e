import { BadRequestException } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';

/**
 * PostgreSQL's text cannot hold U+0000: a NUL that reached a query would fail there (a 500). Every
 * part of a request that becomes text is checked once, here, and a NUL in it is a 400 naming where
 * it is: the path and the query (`%00`, which Express decodes), the headers the app reads (a literal
 * NUL, or `%00` in Cookie, whose values are decoded), and the parsed body (JSON strings and keys
 * through jsonProblem, form fields below; multipart fields through the validation pipe).
 */
const ENCODED_NUL = /%00/i;

/** Where a NUL is in a parsed body (a form's fields, a multipart's text fields), or undefined. */
export function nulIn(value: unknown, where: string): string | undefined {
  const stack: [unknown, string][] = [[value, where]];
  while (stack.length > 0) {
    const [v, at] = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return at;
    } else if (v !== null && typeof v === 'object') {
      for (const [key, child] of Object.entries(v as Record<string, unknown>)) {
        if (key.includes('\u0000')) return `${at}: a key`;
        stack.push([child, `${at}.${key}`]);
      }
    }
  }
  return undefined;
}

function problem(req: Request): string | undefined {
  const [path, query] = splitUrl(req.originalUrl ?? req.url);
  if (ENCODED_NUL.test(path) || path.includes('\u0000')) return 'The path';
  if (ENCODED_NUL.test(query) || query.includes('\u0000')) return 'The query string';
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i];
    const value = req.rawHeaders[i + 1];
    if (value.includes('\u0000') || (name.toLowerCase() === 'cookie' && ENCODED_NUL.test(value))) return `The ${name} header`;
  }
  return nulIn(req.body, 'The request body');
}

function splitUrl(url: string): [string, string] {
  const at = url.indexOf('?');
  return at < 0 ? [url, ''] : [url.slice(0, at), url.slice(at + 1)];
}

/** The 400 for a NUL at `where`. */
export function nulRejection(where: string): BadRequestException {
  return new BadRequestException(`${where} contains a NUL character (U+0000, %00 or \\u0000), which text cannot hold.`);
}

/** Rejects a request with a NUL anywhere the app reads text (after the body parsers, before anything else reads it). */
export function rejectNulBytes() {
  return (req: Request, _res: Response, next: NextFunction): void => {
    const where = problem(req);
    if (where === undefined) return next();
    // The logger reads the body when the response ends: it must not keep the NUL either.
    if (where.startsWith('The request body')) req.body = undefined;
    next(nulRejection(where));
  };
}
