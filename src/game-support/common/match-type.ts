/**
 * How a batch-manual match type finds a score's chart. Each kind is one bulk lookup of the chart matcher
 * (src/repositories/chart-match.repository.ts), served by an index:
 *
 * - `songTitle`: the song whose title or an alternate title is the identifier, in any case (`songs.match_titles`,
 *   lowercased, GIN), then its chart of the difficulty; the element's `artist` tells apart songs that share a title.
 * - `songID`: the song with this id (the songs' primary key), then its chart of the difficulty.
 * - `songData`: the song whose `data[field]` is the identifier, exactly (an expression index on
 *   `songs (game, data ->> field)`, declared from the registry by the catalog schema), then its chart of the difficulty.
 * - `chartInGameID`: the chart of the difficulty whose `data[field]` (an integer, or a list of them) holds the
 *   identifier (`charts.in_game_ids`, GIN, filled from these fields).
 * - `chartHash`: the chart whose `data[field]` (a string, or a list of them) holds the identifier, in any case
 *   (`charts.chart_hashes`, lowercased, GIN, filled from these fields); found in any playtype of the game, so that a
 *   chart sent as the wrong playtype is named as such.
 * - `chartData`: the chart of the playtype and difficulty whose `data[field]` (a string) is the identifier, exactly
 *   (an expression index on `charts (game, data ->> field)`, declared from the registry by the catalog schema).
 */
export type MatchLookup =
  | { kind: 'songTitle' }
  | { kind: 'songID' }
  | {
      kind: 'songData';
      field: string;
      /** What the key is called in "No <game> song has <what> <identifier>." */
      what: string;
    }
  | {
      kind: 'chartInGameID';
      fields: readonly string[];
      /** Difficulty names an element may send besides the GPT's own, each standing for any of these difficulties. */
      difficultyAliases?: Readonly<Record<string, readonly string[]>>;
    }
  | { kind: 'chartHash'; fields: readonly string[] }
  | {
      kind: 'chartData';
      field: string;
      /** What the key is called in "No <playtype> <difficulty> chart has <what> <identifier>." */
      what: string;
    };

/** A chart `data` field the chart matcher reads through a derived column: which column and which kind fills it. */
export type ChartKeyKind = Extract<MatchLookup, { fields: readonly string[] }>['kind'];

/** One batch-manual `matchType`: declared once, in the folder of the game it belongs to (or common/ when generic). */
export interface MatchTypeDefinition<N extends string = string> {
  /** The `matchType` value of a batch-manual score element. */
  name: N;
  /**
   * The identifier's shape, checked before matching (batch-manual elements already have 1 to 500 characters):
   * `pattern` must match the whole identifier; without one any identifier is looked up as it is.
   */
  identifier: { pattern?: RegExp; description: string };
  lookup: MatchLookup;
  /** The games whose GPTs may list it in supportedMatchTypes: 'any', or these games. */
  games: 'any' | readonly string[];
}

/** Keeps the name's literal type, so that the registry can name its match types. */
export function defineMatchType<const N extends string>(definition: MatchTypeDefinition<N>): MatchTypeDefinition<N> {
  return definition;
}

/** Whether an element of this match type must name a difficulty: every lookup but a chart hash picks a chart by one. */
export function needsDifficulty(lookup: MatchLookup): boolean {
  return lookup.kind !== 'chartHash';
}

/** Whether the identifier is compared in any case (a title, a hex hash). */
export function caseInsensitive(lookup: MatchLookup): boolean {
  return lookup.kind === 'songTitle' || lookup.kind === 'chartHash';
}

/** The difficulty names this match type accepts besides the GPT's own (sdvxInGameID's ANY_INF). */
export function difficultyAliases(lookup: MatchLookup): readonly string[] {
  return lookup.kind === 'chartInGameID' && lookup.difficultyAliases ? Object.keys(lookup.difficultyAliases) : [];
}

/** The difficulties a sent difficulty stands for: an alias's, or itself. */
export function difficultiesOf(lookup: MatchLookup, difficulty: string): readonly string[] {
  const aliases = lookup.kind === 'chartInGameID' ? lookup.difficultyAliases : undefined;
  return aliases && Object.hasOwn(aliases, difficulty) ? aliases[difficulty] : [difficulty];
}

/** Why the identifier does not fit the match type; undefined when it does. */
export function identifierProblem(matchType: MatchTypeDefinition, identifier: string): string | undefined {
  const { pattern, description } = matchType.identifier;
  return pattern && !pattern.test(identifier) ? `identifier '${identifier}' must be ${description} for matchType ${matchType.name}.` : undefined;
}

/** Identifier shapes more than one match type uses. */
export const IDENTIFIERS = {
  anyText: (description: string) => ({ description }),
  nonNegativeInteger: (description: string) => ({ pattern: /^\d{1,9}$/, description }),
} as const;
