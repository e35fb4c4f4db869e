import { expect } from '@jest/globals';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { SeedLoader } from '../../src/seeds/seed-loader.js';
import { SeedSource } from '../../src/seeds/seed-source.js';
import type { Permission } from '../../src/common/permissions.js';
import type { Database } from '../../src/database/database.js';
import type { ImportDocument } from '../../src/presenters/import.presenter.js';
import type { TestApp } from './app.js';
import { bearer, issueToken, signUp, type SignedUpUser } from './users.js';

/** The import pipeline's own catalog: hand-written songs and charts shaped like the Tachi seeds. */
export const PIPELINE_FIXTURES = path.resolve('test/fixtures/import-pipeline');

/** Chart ids of the fixture catalog: sha1 of "import-pipeline-<tag>", e.g. "sdvx-1-EXH". */
export const fixtureChart = (tag: string) => createHash('sha1').update(`import-pipeline-${tag}`).digest('hex');

/** A fixed hour in the past, so that every timestamp of a test is both valid and predictable. */
export const T0 = Date.UTC(2024, 0, 15, 12);
export const HOUR = 60 * 60 * 1000;
export const MINUTE = 60 * 1000;

/** How the file route refuses a file whole: a 400 whose message matches. */
export const refusedFile = (message: RegExp) => ({ status: 400, body: expect.objectContaining({ message: expect.stringMatching(message) }) });

/** Loads a fixture directory (catalog by default) with the real seed loader; fails on any rejected record. */
export async function loadFixtureCatalog(database: Database, dir = 'catalog', games?: string[]) {
  const report = await new SeedLoader(database).load(new SeedSource(path.resolve(PIPELINE_FIXTURES, dir)), games ? { games } : {});
  if (report.rejected.length) throw new Error(`fixture records rejected: ${JSON.stringify(report.rejected)}`);
  return report;
}

export interface Player extends SignedUpUser {
  token: string;
}

/** A registered user with an API token holding these permissions (submit_score by default). */
export async function player(t: TestApp, permissions: Permission[] = ['submit_score']): Promise<Player> {
  const u = await signUp(t);
  return { ...u, token: await issueToken(u, permissions) };
}

export type ScoreElement = Record<string, unknown>;

export function batchManual(game: string, playtype: string, elements: ScoreElement[], extra: Record<string, unknown> = {}) {
  return { meta: { game, playtype, service: 'pipeline-test' }, scores: elements, ...extra };
}

/** POST /import/file with the document, serialised as JSON, as the scoreData file. */
export function importFile(t: TestApp, token: string, document: unknown, headers: Record<string, string> = {}) {
  return importText(t, token, JSON.stringify(document), headers);
}

/** POST /import/file with this text as the scoreData file. */
export function importText(t: TestApp, token: string, text: string, headers: Record<string, string> = {}) {
  return t
    .http()
    .post('/api/v1/import/file')
    .set({ ...bearer(token), ...headers })
    .field('importType', 'file/batch-manual')
    .attach('scoreData', Buffer.from(text, 'utf8'), { filename: 'scores.json', contentType: 'application/json' });
}

/** POST /ir/direct-manual/import with the document as the JSON body. */
export function directManual(t: TestApp, token: string, document: unknown, headers: Record<string, string> = {}) {
  return t
    .http()
    .post('/api/v1/ir/direct-manual/import')
    .set({ ...bearer(token), ...headers })
    .send(document as object);
}

/** Imports through the file route and returns the ImportDocument, failing on anything but 200. */
export async function imported(t: TestApp, token: string, document: unknown): Promise<ImportDocument> {
  const res = await importFile(t, token, document);
  if (res.status !== 200) throw new Error(`import failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as ImportDocument;
}

/** The error entries of an ImportDocument, by the score index their message names. */
export function errorsByIndex(doc: ImportDocument): Map<number, { type: string; message: string }> {
  const out = new Map<number, { type: string; message: string }>();
  for (const e of doc.errors) {
    const m = /^scores\[(\d+)\]: /.exec(e.message);
    if (!m) throw new Error(`error without an index: ${e.message}`);
    out.set(Number(m[1]), e);
  }
  return out;
}

export interface UploadOptions {
  /** The scoreData file's name (default `scores` plus an extension guessed from contentType). */
  filename?: string;
  contentType?: string;
  /** Other multipart form fields (playtype, assertPlaytypeCorrect, …). */
  fields?: Record<string, string>;
  /** Extra request headers (X-User-Intent, …). */
  headers?: Record<string, string>;
}

/**
 * POST /import/file with this importType and the file as scoreData (no file part when null); with
 * token null, unauthenticated.
 */
export function uploadFile(t: TestApp, token: string | null, importType: string, file: Buffer | string | null, options: UploadOptions = {}) {
  let req = t.http().post('/api/v1/import/file');
  if (token) req = req.set(bearer(token));
  if (options.headers) req = req.set(options.headers);
  req = req.field('importType', importType);
  for (const [k, v] of Object.entries(options.fields ?? {})) req = req.field(k, v);
  if (file === null) return req;
  const contentType = options.contentType ?? 'application/octet-stream';
  return req.attach('scoreData', Buffer.isBuffer(file) ? file : Buffer.from(file, 'utf8'), { filename: options.filename ?? 'scores', contentType });
}

/** A seeded generator of numbers in [0, 1) (a linear congruential one), so that a failing random input can be replayed. */
export function seededRandom(seed: number): () => number {
  let s = seed % 2 ** 31;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

/**
 * Inputs for a format's property test: the text cut at each of `cuts`, then `count` copies of it
 * with `edits` characters each replaced by one of `alphabet`, chosen by `next`.
 */
export function mutatedTexts(
  text: string,
  next: () => number,
  options: { cuts: readonly number[]; count: number; edits: number; alphabet: readonly string[] },
): string[] {
  const inputs = options.cuts.map((cut) => text.slice(0, cut));
  for (let n = 0; n < options.count; n++) {
    const chars = [...text];
    for (let k = 0; k < options.edits; k++) chars[Math.floor(next() * chars.length)] = options.alphabet[Math.floor(next() * options.alphabet.length)];
    inputs.push(chars.join(''));
  }
  return inputs;
}

/**
 * Sends every input and expects each answer's status among `allowed` (by default 200 or a 400:
 * never a 500 for a client's mistake). A failure names the input that caused it.
 */
export async function expectOnlyClientAnswers<Input>(
  inputs: readonly Input[],
  send: (input: Input) => PromiseLike<{ status: number }>,
  allowed: readonly number[] = [200, 400],
): Promise<void> {
  for (const input of inputs) {
    const { status } = await send(input);
    expect({ input, status, allowed: allowed.includes(status) }).toEqual({ input, status, allowed: true });
  }
}
