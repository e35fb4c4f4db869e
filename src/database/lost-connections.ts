import type pg from 'pg';

/**
 * A connection that ends (a restart of PostgreSQL, a network cut) emits 'error' on its client. The
 * pool listens only on idle clients: on one checked out (a transaction, a query) Node would throw
 * the unhandled event and end the process. Each client gets a listener for its whole life; the
 * failure still reaches the query or transaction that was running (which a 503 answers), and the
 * pool drops the broken client when it is released.
 */
export function survivesLostConnections(pool: pg.Pool): void {
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
}

/**
 * The one way the service reaches PostgreSQL: a node-postgres pool for a server, or PGlite
 * (real PostgreSQL in WebAssembly) in a worker thread of this process (PgliteThread). Both run the
 * same Drizzle queries and the same drizzle-kit migrations.
 */
