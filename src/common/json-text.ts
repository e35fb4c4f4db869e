/**
 * JSON text kept beside shared documents, so that an answer naming them does not serialise them
 * again. A document registered here must not change afterwards (the catalog's song and chart
 * documents, which callers already must not mutate).
 */
const texts = new WeakMap<object, string>();

/** Registers a document's JSON text (its JSON.stringify) and returns the document. */
export function withJsonText<T extends object>(document: T): T {
  texts.set(document, JSON.stringify(document));
  return document;
}

/** How deep stringifyJson looks for registered documents: an answer's lists, and the documents in them. */
const MAX_DEPTH = 3;

function isPlainObject(value: object): value is Record<string, unknown> {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * Exactly JSON.stringify(value), reusing the registered text of documents found in the answer's
 * objects and arrays (down to MAX_DEPTH); below that, and for everything else, JSON.stringify.
 */
export function stringifyJson(value: unknown): string | undefined {
  return write(value, MAX_DEPTH);
}

/** The JSON text of a value, or undefined where JSON.stringify would leave it out. */
function write(value: unknown, depth: number): string | undefined {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const text = texts.get(value);
  if (text !== undefined) return text;
  if (depth === 0 || typeof (value as { toJSON?: unknown }).toJSON === 'function') return JSON.stringify(value);
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += `${i ? ',' : ''}${write(value[i], depth - 1) ?? 'null'}`;
    return `${out}]`;
  }
  if (!isPlainObject(value)) return JSON.stringify(value);
  let out = '{';
  let first = true;
  for (const key of Object.keys(value)) {
    const part = write(value[key], depth - 1);
    if (part === undefined) continue;
    out += `${first ? '' : ','}${JSON.stringify(key)}:${part}`;
    first = false;
  }
  return `${out}}`;
}
