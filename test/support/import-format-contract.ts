import { beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { Permission } from '../../src/common/permissions.js';
import type { TestApp } from './app.js';
import { ban } from './db-fixtures.js';
import { player, type Player } from './imports.js';
import { countRows, importRows, storedImport, storedPb, storedScores, storedSessions } from './stored.js';

/** What a request got: its status, and its body when the expectation gives one (compared with toEqual; use expect.objectContaining for a part). */
export interface Answer {
  status: number;
  body?: unknown;
}

interface Answered {
  status: number;
  body: unknown;
}

type Headers = Record<string, string>;

/**
 * An import format (a file type, a hook or an IR) as the contract every format keeps sees it:
 * how to send an input, one input a new player can import, and how the format answers.
 */
export interface ImportFormat<I> {
  /** The import type, as the import and its scores record it (ir/fervidex, file/mer-iidx, …). */
  importType: string;
  /** The test app, with the catalog the inputs need loaded (read when a test runs). */
  app: () => TestApp;
  /** Sends `input` to the format's route as the holder of `token` (no Authorization header when null), with these extra headers. */
  send: (token: string | null, input: I, headers?: Headers) => PromiseLike<Answered>;
  /** An input a new player imports: it stores `stores.scores` scores (and `stores.sessions` sessions). */
  input: I;
  stores: { scores: number; sessions: number };
  /** Other results on a chart of `input` (say, the same score with other judgements), each of which imports as one more score. */
  otherResults?: I[];
  /** True when the format reads X-User-Intent (the file route and direct-manual); a hook's imports never have the user's intent. */
  readsUserIntent: boolean;
  /** The same input sent a day later is the same play still (hooks date a play when it arrives; USC and files carry its time). */
  sameInputLater?: boolean;
  answers: {
    /** To `input` from a new player (and to each of otherResults). */
    imported: Answer;
    /** To `input` sent again. */
    duplicate: Answer;
    /** No Authorization header. */
    unauthenticated: Answer;
    /** A token without submit_score. */
    forbidden: Answer;
    /** A bearer token nobody was issued (malformed, and well-formed: 40 hex characters). */
    unknownToken?: Answer;
    /** `Authorization: Basic …`. */
    otherScheme?: Answer;
    /** A valid token of a banned account. */
    banned?: Answer;
  };
  /** Other routes of the format, which refuse a request without the right token alike (each sends its own body). */
  otherRoutes?: { name: string; send: (token: string | null, headers?: Headers) => PromiseLike<Answered> }[];
  /** Requests the format refuses whole (a malformed body, a missing file, bad headers): the answer each gets. */
  refused?: { name: string; send: (token: string) => PromiseLike<Answered>; answer: Answer }[];
}

/** The fields of every ImportDocument. */
export const IMPORT_DOCUMENT_KEYS = [
  'classDeltas',
  'createdSessions',
  'errors',
  'game',
  'goalInfo',
  'idStrings',
  'importID',
  'importType',
  'questInfo',
  'scoreIDs',
  'timeFinished',
  'timeStarted',
  'userID',
  'userIntent',
].sort();

/** Checks the answer's status, and its body when the expectation gives one; `label` names the request in a failure. */
function expectAnswer(res: Answered, answer: Answer, label = ''): void {
  const body = answer.body === undefined ? undefined : res.body;
  expect({ label, status: res.status, body }).toEqual({ label, status: answer.status, body: answer.body });
}

/**
 * The contract every import format keeps, declared as tests in a describe block of the caller's:
 * what an import stores and shows through the API, its ImportDocument, the user's intent, re-sent
 * and other results, revert, and the refusals (no token, no submit_score, a banned account,
 * inputs refused whole), after which nothing of the request is stored.
 */
export function importFormatContract<I>(format: ImportFormat<I>): void {
  const t = () => format.app();
  const newPlayer = (permissions?: Permission[]) => player(t(), permissions);
  const imported = async (p: Player, input: I = format.input) => expectAnswer(await format.send(p.token, input), format.answers.imported);

  async function expectNothingStored(userID: number) {
    const stored = {
      scores: await countRows(t(), 'scores', { userID }),
      orphans: await countRows(t(), 'orphans', { userID }),
      imports: await countRows(t(), 'imports', { userID }),
    };
    expect(stored).toEqual({ scores: 0, orphans: 0, imports: 0 });
  }
  /** The player's only import's document. */
  async function onlyImport(userID: number) {
    const rows = await importRows(t(), { userID });
    expect(rows.map((r) => [r.importType, r.status])).toEqual([[format.importType, 'completed']]);
    return (await storedImport(t(), rows[0].importID))!;
  }

  describe(`the contract of every import format (${format.importType})`, () => {
    it(`imports the input: its scores, PBs and sessions show through the API, and its ImportDocument lists them`, async () => {
      const p = await newPlayer();
      await imported(p);
      const scores = await storedScores(t(), p.user.id);
      expect(scores).toHaveLength(format.stores.scores);
      for (const s of scores) expect([s.userID, s.importType]).toEqual([p.user.id, format.importType]);
      const charts = [...new Set(scores.map((s) => s.chartID))].sort();
      for (const chartID of charts) expect(await storedPb(t(), p.user.id, chartID)).toMatchObject({ chartID });
      const listed = await Promise.all(
        [...new Set(scores.map((s) => `${s.game}/${s.playtype}`))].map(async (gpt) => {
          const res = await t().http().get(`/api/v1/users/${p.user.id}/games/${gpt}/pbs/all`);
          return (res.body as { pbs: { chartID: string }[] }).pbs.map((pb) => pb.chartID);
        }),
      );
      expect(listed.flat().sort()).toEqual(charts);
      const sessions = await storedSessions(t(), p.user.id);
      expect(sessions).toHaveLength(format.stores.sessions);

      const doc = await onlyImport(p.user.id);
      expect(Object.keys(doc).sort()).toEqual(IMPORT_DOCUMENT_KEYS);
      expect(doc).toMatchObject({ importType: format.importType, userID: p.user.id, userIntent: false });
      expect([...doc.scoreIDs].sort()).toEqual(scores.map((s) => s.scoreID).sort());
      expect(doc.createdSessions.map((c) => c.sessionID).sort()).toEqual(sessions.map((s) => s.sessionID).sort());
      expect(doc.createdSessions.every((c) => c.type === 'Created')).toBe(true);
      expect(doc.timeFinished).toBeGreaterThanOrEqual(doc.timeStarted!);
    });

    it(
      format.readsUserIntent ? 'records the user’s intent from X-User-Intent: true' : 'never records the user’s intent, whatever X-User-Intent says',
      async () => {
        const p = await newPlayer();
        expectAnswer(await format.send(p.token, format.input, { 'X-User-Intent': 'true' }), format.answers.imported);
        expect((await onlyImport(p.user.id)).userIntent).toBe(format.readsUserIntent);
      },
    );

    it('imports nothing new from the same input sent again', async () => {
      const p = await newPlayer();
      await imported(p);
      const [scores, sessions] = [await storedScores(t(), p.user.id), await storedSessions(t(), p.user.id)];
      const orphans = await countRows(t(), 'orphans', { userID: p.user.id });
      expectAnswer(await format.send(p.token, format.input), format.answers.duplicate);
      expect(await storedScores(t(), p.user.id)).toEqual(scores);
      expect(await storedSessions(t(), p.user.id)).toHaveLength(sessions.length);
      expect(await countRows(t(), 'orphans', { userID: p.user.id })).toBe(orphans);
    });

    if (format.sameInputLater)
      it('imports nothing new from the same input sent again a day later', async () => {
        const p = await newPlayer();
        await imported(p);
        const clock = jest.spyOn(Date, 'now').mockReturnValue(Date.now() + 24 * 60 * 60 * 1000);
        try {
          expectAnswer(await format.send(p.token, format.input), format.answers.duplicate);
        } finally {
          clock.mockRestore();
        }
        expect(await storedScores(t(), p.user.id)).toHaveLength(format.stores.scores);
      });

    const others = format.otherResults ?? [];
    if (others.length)
      it('imports another result on the same chart as a new score', async () => {
        const p = await newPlayer();
        await imported(p);
        for (const [n, other] of others.entries()) {
          await imported(p, other);
          expect(await storedScores(t(), p.user.id)).toHaveLength(format.stores.scores + n + 1);
        }
      });

    it('is undone by a revert of its import: its scores, PBs, sessions and ImportDocument are gone', async () => {
      const p = await newPlayer();
      await imported(p);
      const charts = new Set((await storedScores(t(), p.user.id)).map((s) => s.chartID));
      const { importID } = await onlyImport(p.user.id);
      const res = await p.agent.post(`/api/v1/imports/${importID}/revert`);
      expect([res.status, res.body]).toEqual([200, {}]);
      expect(await storedScores(t(), p.user.id)).toEqual([]);
      expect(await storedSessions(t(), p.user.id)).toEqual([]);
      for (const chartID of charts) expect(await storedPb(t(), p.user.id, chartID)).toBeUndefined();
      expect(await storedImport(t(), importID)).toBeUndefined();
    });

    const routes = [
      { name: 'its route', send: (token: string | null, headers?: Headers) => format.send(token, format.input, headers) },
      ...(format.otherRoutes ?? []),
    ];

    it(`refuses a request without a token${format.answers.unknownToken ? ', with an unknown token' : ''}${format.answers.otherScheme ? ' or another scheme' : ''}`, async () => {
      const { unauthenticated, unknownToken, otherScheme } = format.answers;
      for (const route of routes) {
        expectAnswer(await route.send(null), unauthenticated, route.name);
        if (unknownToken)
          for (const token of ['not-a-real-token', 'f'.repeat(40)]) expectAnswer(await route.send(token), unknownToken, `${route.name}, ${token}`);
        if (otherScheme) expectAnswer(await route.send(null, { Authorization: 'Basic abc' }), otherScheme, route.name);
      }
    });

    it('refuses a token without submit_score, and stores nothing', async () => {
      const reader = await newPlayer(['customise_profile']);
      for (const route of routes) expectAnswer(await route.send(reader.token), format.answers.forbidden, route.name);
      await expectNothingStored(reader.user.id);
    });

    const banned = format.answers.banned;
    if (banned)
      it('refuses a banned account, and stores nothing', async () => {
        const p = await newPlayer();
        await ban(t(), p.user.id);
        expectAnswer(await format.send(p.token, format.input), banned);
        await expectNothingStored(p.user.id);
      });

    const refused = format.refused ?? [];
    if (refused.length)
      describe('refuses these requests whole, and stores nothing', () => {
        let p: Player;
        beforeAll(async () => {
          p = await newPlayer();
        });
        it.each(refused.map((r) => [r.name, r] as const))('%s', async (_name, r) => {
          expectAnswer(await r.send(p.token), r.answer);
          await expectNothingStored(p.user.id);
        });
      });
  });
}
