import type { Database, Tx } from '../database/database.js';

class RolledBack<R> extends Error {
  constructor(readonly outcome: R) {
    super('The transaction was rolled back.');
  }
}

/**
 * Runs fn in one transaction. Inside it, `rollBack(outcome)` undoes every write fn made and makes
 * the call return `outcome`: a refusal (an invalid code, say) that must leave no trace.
 */
export async function transactionOrRollBack<T, R>(database: Database, fn: (tx: Tx, rollBack: (outcome: R) => never) => Promise<T>): Promise<T | R> {
  let thrown: RolledBack<R> | undefined;
  try {
    return await database.transaction((tx) =>
      fn(tx, (outcome) => {
        thrown = new RolledBack(outcome);
        throw thrown;
      }),
    );
  } catch (err) {
    if (thrown && err === thrown) return thrown.outcome;
    throw err;
  }
}
