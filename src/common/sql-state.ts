/** The SQLSTATE of a database error: node-postgres and PGlite set `code`, Drizzle wraps theirs as `cause`. */
export function sqlState(err: unknown): string | undefined {
  const e = err as { code?: unknown; cause?: { code?: unknown } } | null | undefined;
  const code = typeof e?.code === 'string' ? e.code : e?.cause?.code;
  return typeof code === 'string' ? code : undefined;
}

/** foreign_key_violation: the row referred to was deleted meanwhile. */
export const FOREIGN_KEY_VIOLATION = '23503';
