import { BMS_CHART_HASH } from './bms/match-types.js';
import { defineMatchType, IDENTIFIERS, type ChartKeyKind, type MatchTypeDefinition } from './common/match-type.js';
import { DDR_SONG_HASH } from './ddr/match-types.js';
import { IIDX_CHART_HASH } from './iidx/match-types.js';
import { ITG_CHART_HASH } from './itg/match-types.js';
import { IN_GAME_STR_ID } from './maimai/match-types.js';
import { POPN_CHART_HASH } from './popn/match-types.js';
import { SDVX_IN_GAME_ID } from './sdvx/match-types.js';
import { USC_CHART_HASH } from './usc/match-types.js';

/** The spec's song title match: the title or an alternate title, in any case, then the chart of the difficulty. */
const SONG_TITLE = defineMatchType({ name: 'songTitle', identifier: IDENTIFIERS.anyText('a song title'), lookup: { kind: 'songTitle' }, games: 'any' });

/** The spec's serviceSongID (HEAD's tachiSongID): the song id, then the chart of the difficulty. */
const SERVICE_SONG_ID = defineMatchType({
  name: 'serviceSongID',
  identifier: IDENTIFIERS.nonNegativeInteger('a song id: a non-negative integer written as a string'),
  lookup: { kind: 'songID' },
  games: 'any',
});

/** The spec's inGameID: chart data.inGameID (an integer or a list of them) and the difficulty. */
const IN_GAME_ID = defineMatchType({
  name: 'inGameID',
  identifier: IDENTIFIERS.nonNegativeInteger('an in-game id: a non-negative integer written as a string'),
  lookup: { kind: 'chartInGameID', fields: ['inGameID'] },
  games: 'any',
});

/**
 * Every batch-manual match type: the spec's seven (part 2), plus three extensions: itgChartHash (HEAD's only ITG match
 * type), without which ITG could import nothing, iidxChartHash (the custom 2dxtra charts Fervidex names by hash),
 * HEAD's popnChartHash and HEAD's inGameStrID.
 * A game's own match type is declared in its folder (`<game>/match-types.ts`) and listed here; a GPT accepts the
 * ones its supportedMatchTypes names. The order is the order of the batch-manual schema's enum and of the chart key
 * columns (see chartMatchKeys).
 */
const REGISTRY = [
  SONG_TITLE,
  DDR_SONG_HASH,
  SERVICE_SONG_ID,
  BMS_CHART_HASH,
  IN_GAME_ID,
  USC_CHART_HASH,
  SDVX_IN_GAME_ID,
  ITG_CHART_HASH,
  IIDX_CHART_HASH,
  POPN_CHART_HASH,
  IN_GAME_STR_ID,
] as const;

export type MatchType = (typeof REGISTRY)[number]['name'];

export const MATCH_TYPE_DEFINITIONS: readonly MatchTypeDefinition<MatchType>[] = REGISTRY;

/** The names, for the batch-manual schema's enum. */
export const MATCH_TYPES = REGISTRY.map((m) => m.name) as [MatchType, ...MatchType[]];

const BY_NAME = new Map<string, MatchTypeDefinition<MatchType>>(REGISTRY.map((m) => [m.name, m]));

/**
 * Older names of registered match types, still accepted: HEAD's `tachiSongID` is the spec's `serviceSongID`
 * (HEAD names it after Tachi; batch-manual documents written for Tachi send it).
 */
export const MATCH_TYPE_ALIASES: Readonly<Record<string, MatchType>> = { tachiSongID: 'serviceSongID' };

/** A registered match type by HEAD's name (serviceSongID is tachiSongID). */
export function headMatchTypeName(name: MatchType): string {
  return Object.entries(MATCH_TYPE_ALIASES).find(([, registered]) => registered === name)?.[0] ?? name;
}

/** The registered name of a match type or its alias; other names unchanged (the schema rejects them). */
export function canonicalMatchType(name: unknown): unknown {
  return typeof name === 'string' && Object.hasOwn(MATCH_TYPE_ALIASES, name) ? MATCH_TYPE_ALIASES[name] : name;
}

export function findMatchType(name: string): MatchTypeDefinition<MatchType> | undefined {
  return BY_NAME.get(name);
}

/** A registered match type (the name has been checked against the registry). */
export function matchTypeOf(name: MatchType): MatchTypeDefinition<MatchType> {
  return BY_NAME.get(name)!;
}

/** Whether a GPT of this game may list the match type. */
export function matchTypeAllowedFor(matchType: MatchTypeDefinition, game: string): boolean {
  return matchType.games === 'any' || matchType.games.includes(game);
}

function fieldsOf(kind: ChartKeyKind): readonly string[] {
  return [...new Set(REGISTRY.flatMap((m) => (m.lookup.kind === kind ? m.lookup.fields : [])))];
}

/**
 * The chart data fields behind each chart key column, from every registered match type of that kind (whatever the
 * game: a hash field that two games share is read alike on both).
 */
export const CHART_KEY_FIELDS: Readonly<Record<ChartKeyKind, readonly string[]>> = {
  chartInGameID: fieldsOf('chartInGameID'),
  chartHash: fieldsOf('chartHash'),
};

/** The chart data fields chartData match types read; the catalog schema declares an expression index on each. */
export const CHART_DATA_MATCH_FIELDS: readonly string[] = [...new Set(REGISTRY.flatMap((m) => (m.lookup.kind === 'chartData' ? [m.lookup.field] : [])))];

/** The song data fields songData match types read; the catalog schema declares an expression index on each. */
export const SONG_DATA_MATCH_FIELDS: readonly string[] = [...new Set(REGISTRY.flatMap((m) => (m.lookup.kind === 'songData' ? [m.lookup.field] : [])))];

function integersOf(value: unknown): number[] {
  if (typeof value === 'number' && Number.isInteger(value)) return [value];
  if (Array.isArray(value)) return value.filter((v): v is number => typeof v === 'number' && Number.isInteger(v));
  return [];
}

function lowercaseStringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value.toLowerCase()];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string').map((v) => v.toLowerCase());
  return [];
}

/**
 * A chart's match key columns, derived from its data by the registry: `in_game_ids` (the integers of every
 * chartInGameID field) and `chart_hashes` (the lowercased strings of every chartHash field, each once). Every writer
 * of charts (the seed loader, orphan charts) stores these, so a match type of an existing kind on a new data field
 * needs no migration: the column's GIN index already serves it.
 */
export function chartMatchKeys(data: Readonly<Record<string, unknown>>): { inGameIDs: number[]; chartHashes: string[] } {
  return {
    inGameIDs: CHART_KEY_FIELDS.chartInGameID.flatMap((f) => integersOf(data[f])),
    chartHashes: [...new Set(CHART_KEY_FIELDS.chartHash.flatMap((f) => lowercaseStringsOf(data[f])))],
  };
}
