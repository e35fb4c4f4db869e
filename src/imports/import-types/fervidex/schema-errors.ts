import type { z } from 'zod';
import { ImportRejectedError } from '../../import-errors.js';

/** A zod failure as one 400 naming each problem's path, after the prefix Fervidex's clients know. */
export function rejectInvalid(prefix: string, error: z.ZodError): never {
  const problems = error.issues
    .slice(0, 5)
    .map((i) => `${i.path.length ? i.path.map(String).join('.') : 'body'}: ${i.message}`)
    .join('; ');
  throw new ImportRejectedError(`${prefix} ${problems}${error.issues.length > 5 ? ` (and ${error.issues.length - 5} more)` : ''}.`);
}
