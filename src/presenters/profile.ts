/**
 * API profiles: which shapes the documents of the API take. `spec` (the default) serves the spec's
 * documents; `tachi` serves Tachi's current (HEAD) documents, for clients written against Tachi.
 *
 * Each document has ONE presenter (definePresenter) that knows both shapes. Services and
 * repositories build the spec document with it as before; the presenter remembers what it built
 * the document from, and the HTTP layer's serialisation step (presentAs, run by the envelope
 * interceptor under API_PROFILE=tachi) replaces every spec document in an answer by the presenter's
 * tachi variant, built from the same source. No service knows which profile is served.
 */
export const API_PROFILES = ['spec', 'tachi'] as const;
export type ApiProfile = (typeof API_PROFILES)[number];

/** A class the OpenAPI document describes a response with (a presenter's document class). */
export type SchemaClass = abstract new (...args: never[]) => object;

/** A presenter's OpenAPI classes: the spec document's, and the tachi document's (`[Class]`: an array of Class). */
export interface PresenterSchemas {
  spec: SchemaClass;
  tachi: SchemaClass | readonly [SchemaClass];
}

export interface PresenterDefinition<S, D extends object, T extends object | string> {
  /** The spec document (the default profile). */
  spec: (source: S) => D;
  /** Tachi's document, from the same source (and the spec document, to copy the fields both share); Tachi's bare string where Tachi answers one. */
  tachi: (source: S, spec: D) => T;
  /**
   * The OpenAPI classes of the two shapes: under API_PROFILE=tachi the document's schema named
   * after `spec` describes `tachi` instead; `[Class]` when the tachi shape is an array of Class.
   */
  schemas?: PresenterSchemas;
}

interface RegisteredPresenter {
  name: string;
  tachi: (source: never, spec: never) => object | string;
  schemas?: PresenterSchemas;
}

/** Every presenter defined (the OpenAPI step swaps their schemas under tachi). */
const PRESENTERS: RegisteredPresenter[] = [];

/** A spec document → what it was built from and by which presenter. Weak: documents die with their answers (or caches). */
const BUILT = new WeakMap<object, { presenter: RegisteredPresenter; source: unknown }>();

/**
 * Defines a document's presenter and returns its spec function (what services call). A document a
 * service copies with a spread (`{...doc, extra}`) is no longer the presenter's: serve the document
 * itself, or give the presenter the extra fields in its source.
 */
export function definePresenter<S, D extends object, T extends object | string>(name: string, definition: PresenterDefinition<S, D, T>): (source: S) => D {
  const presenter: RegisteredPresenter = {
    name,
    tachi: definition.tachi as (source: never, spec: never) => object | string,
    schemas: definition.schemas,
  };
  PRESENTERS.push(presenter);
  return (source: S): D => {
    const document = definition.spec(source);
    BUILT.set(document, { presenter, source });
    return document;
  };
}

/** The presenters defined so far, with their OpenAPI classes. */
export function presenters(): readonly { name: string; schemas?: PresenterSchemas }[] {
  return PRESENTERS;
}

/**
 * An answer as the profile serves it. spec: the value itself. tachi: a copy in which every
 * document a presenter built is its tachi variant (nested documents too); plain objects and
 * arrays are copied, never changed in place (documents may be cached); anything else (buffers,
 * class instances) is kept as it is.
 */
export function presentAs(profile: ApiProfile, value: unknown): unknown {
  return profile === 'spec' ? value : toTachi(value);
}

/**
 * The tachi variant of a document a presenter built: for a presenter whose document is another's
 * with extra fields (`{...toPbDocument(pb), __playcount}`), whose tachi variant is then
 * `{...tachiOf(toPbDocument(pb)), __playcount}`.
 */
export function tachiOf<T>(document: object): T {
  return toTachi(document) as T;
}

function toTachi(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  // First: a presenter may build an array (a list whose tachi variant differs as a whole, or is an object).
  const built = BUILT.get(value);
  if (built) return toTachi(built.presenter.tachi(built.source as never, value as never));
  if (Array.isArray(value)) return value.map(toTachi);
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, toTachi(v)]));
}
