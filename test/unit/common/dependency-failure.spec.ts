import { describe, expect, it } from '@jest/globals';
import { dependencyUnavailable, storageFull } from '../../../src/common/dependency-failure.js';

/** The errors as the drivers raise them: a SQLSTATE in `code`, wrapped by Drizzle as `cause`. */
const dbError = (message: string, code: string) => Object.assign(new Error(message), { code });
const drizzle = (cause: unknown) => new Error('Failed query: INSERT INTO "scores" …', { cause });

describe('dependency failures', () => {
  it("a full disk is told apart from the request's own mistakes, through Drizzle's wrapping", () => {
    // What PGlite raised in the fault suite's full disk (RELIABILITY.md).
    expect(storageFull(drizzle(dbError('could not extend file "base/5/16870_fsm": No space left on device', '53100')))).toBe(true);
    expect(storageFull(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }))).toBe(true);
    expect(storageFull(drizzle(dbError('duplicate key value violates unique constraint', '23505')))).toBe(false);
    expect(storageFull(drizzle(dbError('out of shared memory', '53200')))).toBe(false);
    expect(storageFull(undefined)).toBe(false);
    // Not an unreachable dependency: its own answer says why.
    expect(dependencyUnavailable(drizzle(dbError('could not extend file', '53100')))).toBe(false);
  });

  it('an unreachable database or Redis, and not a query mistake', () => {
    expect(dependencyUnavailable(drizzle(dbError('terminating connection due to administrator command', '57P01')))).toBe(true);
    expect(dependencyUnavailable(drizzle(dbError('sorry, too many clients already', '53300')))).toBe(true);
    expect(dependencyUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(dependencyUnavailable(drizzle(dbError('syntax error at or near "SELEC"', '42601')))).toBe(false);
    expect(dependencyUnavailable('a string')).toBe(false);
  });
});
