/** The SQLSTATE of a database error: node-postgres and PGlite set `code`, Drizzle wraps theirs as `cause`. */
export function sqlState(err: unknown): string | undefined {
  const e = err as { code?: unknown; cause?: { code?: unknown } } | null | undefined;
  const code = typeof e?.code === 'string' ? e.code : e?.cause?.code;
  return typeof code === 'string' ? code : undefined;
}

/** foreign_key_violation: the row referred to was deleted meanwhile. */
export const FOREIGN_KEY_VIOLATION = '23503';

/** Messages of a connection that failed without a code: node-postgres's, and Redis clients' while disconnected. */
const CONNECTION_LOST = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect/,
  /^The client is (offline|closed)/,
  /^Stream isn't writeable/,
  /^Connection is closed/,
  /^Client has encountered a connection error/,
];

/**
 * A failure of a dependency rather than of the request: the database or Redis is unreachable,
 * restarting or out of connections (SQLSTATE classes 08 and 57P, 53300; a socket error such as
 * ECONNREFUSED; a connection that ended). The request may succeed once it is back: a 503, not a 500.
 * Looks through Drizzle's wrapping (`cause`).
 */
export function dependencyUnavailable(err: unknown): boolean {
  for (let e = err as { code?: unknown; message?: unknown; cause?: unknown } | null | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (/^(08|57P0[1-3])/.test(code) || code === '53300' || /^E(CONNREFUSED|CONNRESET|PIPE|TIMEDOUT|HOSTUNREACH|NETUNREACH|AI_AGAIN)$/.test(code)) return true;
    if (typeof e.message === 'string' && CONNECTION_LOST.some((re) => re.test(e!.message as string))) return true;
  }
  return false;
}
