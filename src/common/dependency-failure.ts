/**
 * Failures of a dependency rather than of the request, which the client may retry once it is back:
 * the exception filter answers them 503 with Retry-After, not 500. Both look through Drizzle's
 * wrapping of the driver's error (`cause`).
 */

/** Messages of a connection that failed without a code: node-postgres's, and Redis clients' while disconnected. */
const CONNECTION_LOST = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect/,
  /^The client is (offline|closed)/,
  /^Stream isn't writeable/,
  /^Connection is closed/,
  /^Client has encountered a connection error/,
];

/** The error and the errors it wraps, outermost first. */
function* chain(err: unknown): Generator<{ code?: unknown; message?: unknown }> {
  for (let e = err as { cause?: unknown } | null | undefined, depth = 0; e && typeof e === 'object' && depth < 4; e = e.cause as typeof e, depth++)
    yield e as { code?: unknown; message?: unknown };
}

/**
 * The database or Redis is unreachable, restarting or out of connections (SQLSTATE classes 08 and
 * 57P, 53300; a socket error such as ECONNREFUSED; a connection that ended).
 */
export function dependencyUnavailable(err: unknown): boolean {
  for (const e of chain(err)) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (/^(08|57P0[1-3])/.test(code) || code === '53300' || /^E(CONNREFUSED|CONNRESET|PIPE|TIMEDOUT|HOSTUNREACH|NETUNREACH|AI_AGAIN)$/.test(code)) return true;
    if (typeof e.message === 'string' && CONNECTION_LOST.some((re) => re.test(e.message as string))) return true;
  }
  return false;
}

/**
 * The database's disk is full (SQLSTATE 53100 disk_full, "could not extend file …: No space left on
 * device"; ENOSPC from the file system): nothing more can be saved until space is freed, nothing
 * saved is lost, and the process goes on.
 */
export function storageFull(err: unknown): boolean {
  for (const e of chain(err)) if (e.code === '53100' || e.code === 'ENOSPC') return true;
  return false;
}
