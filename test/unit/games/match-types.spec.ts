import { describe, expect, it } from '@jest/globals';
import {
  difficultiesOf,
  difficultyAliases,
  identifierProblem,
  needsDifficulty,
  type MatchTypeDefinition,
} from '../../../src/game-support/common/match-type.js';
import {
  CHART_KEY_FIELDS,
  chartMatchKeys,
  findMatchType,
  MATCH_TYPE_DEFINITIONS,
  MATCH_TYPES,
  matchTypeAllowedFor,
  CHART_DATA_MATCH_FIELDS,
  SONG_DATA_MATCH_FIELDS,
} from '../../../src/game-support/match-types.js';
import { allGpts, findGame, GAMES } from '../../../src/game-support/registry.js';
import { validateScoreElement } from '../../../src/imports/score-element.js';

const NOW = Date.UTC(2026, 0, 1);

describe('the match-type registry', () => {
  it('declares each match type once, and the batch-manual enum lists exactly those', () => {
    const names = MATCH_TYPE_DEFINITIONS.map((m) => m.name);
    expect(new Set(names).size).toBe(names.length);
    expect(MATCH_TYPES).toEqual(names);
    for (const m of MATCH_TYPE_DEFINITIONS) expect(findMatchType(m.name)).toBe(m);
    expect(findMatchType('constructor')).toBeUndefined();
  });

  it("every GPT's supportedMatchTypes come from it, each one allowed for the GPT's game", () => {
    const wrong = allGpts().flatMap((gpt) =>
      gpt.supportedMatchTypes.flatMap((name) => {
        const m = findMatchType(name);
        return m && matchTypeAllowedFor(m, gpt.game) ? [] : [`${gpt.game} ${gpt.playtype}: ${name}`];
      }),
    );
    expect(wrong).toEqual([]);
  });

  it('every match type is used by some GPT, and names only games that exist', () => {
    const used = new Set(allGpts().flatMap((g) => g.supportedMatchTypes));
    expect(MATCH_TYPE_DEFINITIONS.filter((m) => !used.has(m.name)).map((m) => m.name)).toEqual([]);
    for (const m of MATCH_TYPE_DEFINITIONS) if (m.games !== 'any') for (const game of m.games) expect([m.name, findGame(game)?.game]).toEqual([m.name, game]);
  });

  it("declares a game's own match type in that game's folder (<game>/match-types.ts)", async () => {
    for (const m of MATCH_TYPE_DEFINITIONS.filter((d) => d.games !== 'any')) {
      const owner = (m.games as readonly string[])[0];
      const module = (await import(`../../../src/game-support/${owner}/match-types.js`)) as Record<string, unknown>;
      expect([m.name, Object.values(module).includes(m)]).toEqual([m.name, true]);
    }
  });

  it('every match type has a validator for its identifier', () => {
    for (const m of MATCH_TYPE_DEFINITIONS) {
      expect([m.name, m.identifier.description.length > 0]).toEqual([m.name, true]);
      const { pattern } = m.identifier;
      // a pattern checks the whole identifier
      if (pattern) expect([m.name, pattern.source.startsWith('^') && pattern.source.endsWith('$'), pattern.global]).toEqual([m.name, true, false]);
      // ids are looked up as numbers, so only digits may pass
      if (m.lookup.kind === 'songID' || m.lookup.kind === 'chartInGameID') {
        expect([m.name, identifierProblem(m, '123')]).toEqual([m.name, undefined]);
        for (const bad of ['12a', '-1', '1.5', '1e3', ''])
          expect([m.name, bad, identifierProblem(m, bad)]).toEqual([m.name, bad, expect.stringContaining(m.name)]);
      }
    }
    const bms = findMatchType('bmsChartHash')!;
    expect(identifierProblem(bms, 'a'.repeat(32))).toBeUndefined();
    expect(identifierProblem(bms, 'A'.repeat(64))).toBeUndefined();
    expect(identifierProblem(bms, 'abc')).toBe(
      "identifier 'abc' must be an MD5 (32 hex characters) or SHA256 (64 hex characters) chart hash for matchType bmsChartHash.",
    );
  });

  it('every match type has a lookup: the chart keys it reads, its case handling and whether it needs a difficulty', () => {
    const described = (m: MatchTypeDefinition) => {
      const l = m.lookup;
      switch (l.kind) {
        case 'songTitle':
        case 'songID':
          return true;
        case 'songData':
          return SONG_DATA_MATCH_FIELDS.includes(l.field) && l.what.length > 0;
        case 'chartData':
          return CHART_DATA_MATCH_FIELDS.includes(l.field) && l.what.length > 0;
        case 'chartInGameID':
        case 'chartHash':
          return l.fields.length > 0 && l.fields.every((f) => CHART_KEY_FIELDS[l.kind].includes(f));
      }
    };
    expect(MATCH_TYPE_DEFINITIONS.filter((m) => !described(m)).map((m) => m.name)).toEqual([]);
    const needing = MATCH_TYPE_DEFINITIONS.filter((m) => needsDifficulty(m.lookup)).map((m) => m.name);
    expect(needing.sort()).toEqual(['ddrSongHash', 'inGameID', 'inGameStrID', 'sdvxInGameID', 'serviceSongID', 'songTitle']);
  });

  it('difficulty aliases stand for their difficulties, and only own keys count', () => {
    const sdvx = findMatchType('sdvxInGameID')!;
    expect(difficultyAliases(sdvx.lookup)).toEqual(['ANY_INF']);
    expect(difficultiesOf(sdvx.lookup, 'ANY_INF')).toEqual(['INF', 'GRV', 'HVN', 'VVD', 'XCD']);
    expect(difficultiesOf(sdvx.lookup, 'EXH')).toEqual(['EXH']);
    expect(difficultiesOf(sdvx.lookup, 'constructor')).toEqual(['constructor']);
    expect(difficultyAliases(findMatchType('inGameID')!.lookup)).toEqual([]);
  });
});

describe('chart match keys, derived from chart data by the registry', () => {
  it('reads every chartHash field (lowercased, each once, in registry order) and every chartInGameID field', () => {
    expect(CHART_KEY_FIELDS).toEqual({ chartInGameID: ['inGameID'], chartHash: ['hashMD5', 'hashSHA256', 'hashSHA1', 'hashGSv3'] });
    expect(chartMatchKeys({ hashSHA256: 'BB', hashMD5: 'AA', hashSHA1: ['Cc', 3, 'aa'], hashGSv3: 'Dd', notecount: 5 })).toEqual({
      inGameIDs: [],
      chartHashes: ['aa', 'bb', 'cc', 'dd'],
    });
    expect(chartMatchKeys({ inGameID: 7 })).toEqual({ inGameIDs: [7], chartHashes: [] });
    expect(chartMatchKeys({ inGameID: [500, 501, 1.5, '9'] })).toEqual({ inGameIDs: [500, 501], chartHashes: [] });
    expect(chartMatchKeys({ inGameID: null, hashMD5: null })).toEqual({ inGameIDs: [], chartHashes: [] });
  });

  it("a song data match type's field is one the catalog schema indexes", () => {
    expect(SONG_DATA_MATCH_FIELDS).toEqual(['ddrSongHash']);
  });

  it("a chart data match type's field is one the catalog schema indexes (HEAD's inGameStrID)", () => {
    expect(CHART_DATA_MATCH_FIELDS).toEqual(['inGameStrID']);
  });
});

describe('batch-manual elements checked through the registry', () => {
  const element = (matchType: string, identifier: string, difficulty?: string) => ({
    score: 9_000_000,
    lamp: 'CLEAR',
    matchType,
    identifier,
    ...(difficulty === undefined ? {} : { difficulty }),
  });
  const sdvx = GAMES.find((g) => g.game === 'sdvx')!.gpts.Single;
  const message = (raw: unknown) => {
    const v = validateScoreElement(raw, 0, sdvx, NOW);
    return v.ok ? undefined : v.message;
  };

  it("takes the identifier's shape, the need for a difficulty and the difficulty aliases from the match type", () => {
    expect(message(element('sdvxInGameID', '1001', 'ANY_INF'))).toBeUndefined();
    expect(message(element('sdvxInGameID', 'x1', 'EXH'))).toMatch(/identifier 'x1' must be an in-game id/);
    expect(message(element('sdvxInGameID', '1001'))).toBe('difficulty is required for matchType sdvxInGameID.');
    expect(message(element('sdvxInGameID', '1001', 'BAD'))).toBe(
      "Invalid difficulty 'BAD' for sdvx Single: expected one of NOV, ADV, EXH, INF, GRV, HVN, VVD, XCD, MXM, ULT, ANY_INF.",
    );
    expect(message(element('songTitle', 'x', 'ANY_INF'))).toBe(
      "Invalid difficulty 'ANY_INF' for sdvx Single: expected one of NOV, ADV, EXH, INF, GRV, HVN, VVD, XCD, MXM, ULT.",
    );
    expect(message(element('noSuchMatchType', 'x'))).toMatch(/^matchType: /);
    // HEAD's tachiSongID is the spec's serviceSongID; popnChartHash is registered, for pop'n only.
    expect(message(element('tachiSongID', '5', 'EXH'))).toBeUndefined();
    expect(message(element('tachiSongID', 'x', 'EXH'))).toMatch(/identifier 'x' must be a song id/);
    expect(message(element('popnChartHash', 'ab'.repeat(32)))).toBe(
      "matchType 'popnChartHash' is not supported for sdvx Single. Use one of: sdvxInGameID, songTitle, serviceSongID.",
    );
  });
});
