import { BadRequestException } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';

/** Where in a parsed body (or the path and query) a NUL character is, as `body.a.b[2]`; undefined when there is none. */
export function nulBytePath(value: unknown, at: string, depth = 0): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? at : undefined;
  if (depth > 64 || value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulBytePath(value[i], `${at}[${i}]`, depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  for (const [key, inner] of Object.entries(value)) {
    if (key.includes('\u0000')) return `${at} (a key)`;
    const found = nulBytePath(inner, `${at}.${key}`, depth + 1);
    if (found) return found;
  }
  return undefined;
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/**
 * PostgreSQL's text cannot hold NUL (U+0000): a request carrying one anywhere in its path, query string
 * or parsed body (JSON or form) is refused here with a 400 naming where, before any route sees it.
 * Runs after the body parsers, for every route.
 */
export function rejectNulBytes() {
  return (req: Request, _res: Response, next: NextFunction): void => {
    const [path, query = ''] = req.originalUrl.split('?', 2);
    const where = decoded(path).includes('\u0000')
      ? 'the path'
      : query.split('&').some((part) => decoded(part).includes('\u0000'))
        ? 'the query string'
        : nulBytePath(req.body, 'body');
    next(where ? new BadRequestException(`The request contains a NUL character (\\u0000) in ${where}: text may not contain it.`) : undefined);
  };
}
