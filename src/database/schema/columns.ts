import { bigint } from 'drizzle-orm/pg-core';

/** Every timestamp the API shows is an integer of Unix milliseconds, so that is how it is stored. */
export const unixMs = (name: string) => bigint(name, { mode: 'number' });
