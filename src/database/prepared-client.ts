import { createHash } from 'node:crypto';
import pg from 'pg';

/**
 * A node-postgres client that prepares the statements it sends: a parameterised statement gets a
 * name derived from its text, so that the server parses, analyses and (after five runs, when the
 * generic plan is no worse) plans it once per connection, not on every run. The write path sends
 * the same few dozen statement texts over and over with other values (a hook's import is about
 * twenty of them), and parsing and planning them was about a third of the database's CPU time per
 * submission (BENCHMARKS.md, issue 25).
 *
 * Bounded: texts longer than MAX_TEXT, with more than MAX_PARAMS parameters, and every statement
 * past MAX_PER_CONNECTION on a connection run unnamed, as before (drizzle's `inArray` with a varying
 * number of values would otherwise prepare one statement per length). Statements sent by name
 * already (Database.read) keep theirs.
 */
const MAX_TEXT = 16_384;
const MAX_PARAMS = 64;
const MAX_PER_CONNECTION = 256;
/** Names of texts seen, shared by the connections of the process (hashing a text once). */
const NAMES = new Map<string, string>();
const MAX_NAMES = 4_096;

function nameOf(text: string): string {
  let name = NAMES.get(text);
  if (name === undefined) {
    name = `w_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    if (NAMES.size >= MAX_NAMES) NAMES.clear();
    NAMES.set(text, name);
  }
  return name;
}

type QueryArgs = [config: string | pg.QueryConfig, values?: unknown, callback?: unknown];

export class PreparingClient extends pg.Client {
  private readonly prepared = new Set<string>();

  override query(...args: unknown[]): never {
    const [config, values, callback] = args as QueryArgs;
    const named = this.named(config, values);
    const send = super.query as (...a: unknown[]) => never;
    if (!named) return send.apply(this, args);
    // The values travel in the config; a callback stays where it was given.
    return send.call(this, named, typeof values === 'function' ? values : callback);
  }

  private named(config: string | pg.QueryConfig, values: unknown): pg.QueryConfig | undefined {
    const given = typeof config === 'string' ? { text: config, values: Array.isArray(values) ? values : undefined } : config;
    if (!given || typeof given !== 'object' || typeof given.text !== 'string' || given.name) return undefined;
    // Submittables (COPY streams, cursors) and statements without parameters pass through.
    if (typeof (given as { submit?: unknown }).submit === 'function') return undefined;
    const params = given.values ?? (Array.isArray(values) ? values : undefined);
    if (!params || params.length === 0 || params.length > MAX_PARAMS || given.text.length > MAX_TEXT) return undefined;
    const name = nameOf(given.text);
    if (!this.prepared.has(name)) {
      if (this.prepared.size >= MAX_PER_CONNECTION) return undefined;
      this.prepared.add(name);
    }
    return { ...given, values: params, name };
  }
}
