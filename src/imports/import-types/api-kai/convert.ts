import { z } from 'zod';
import { IIDX } from '../../../game-support/iidx/index.js';
import { SDVX } from '../../../game-support/sdvx/index.js';
import { EX_LAMPS } from '../../../game-support/common/ex-score.js';
import { legacyLeggendaria } from '../../../game-support/iidx/legacy-leggendaria.js';
import { EAMUSEMENT_SDVX_DIFFICULTIES, EAMUSEMENT_SDVX_LAMPS, EAMUSEMENT_SDVX_VERSIONS } from '../../../game-support/sdvx/e-amusement.js';
import type { ConvertedItem, ImportType, ParsedImport } from '../types.js';
import { ImportRejectedError } from '../../import-errors.js';

/** The KAI networks' names as scores' `service`. */
const SERVICES: Readonly<Record<string, string>> = { flo: 'FLO', eag: 'EAG', min: 'MIN' };

const count = z.number().int().nonnegative();
const time = z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'must be a date');

const IIDX_ITEM = z.looseObject({
  music_id: count,
  play_style: z.enum(['SINGLE', 'DOUBLE']),
  difficulty: z.enum(['BEGINNER', 'NORMAL', 'HYPER', 'ANOTHER', 'LEGGENDARIA']),
  version_played: z.number().int(),
  lamp: z.number().int().min(0).max(7),
  ex_score: count,
  miss_count: z.number().int().min(-1).nullable().optional(),
  fast_count: count.nullable().optional(),
  slow_count: count.nullable().optional(),
  timestamp: time,
});

const SDVX_ITEM = z.looseObject({
  music_id: count,
  music_difficulty: z.number().int().min(0).max(5),
  played_version: z.number().int().min(1).max(6),
  clear_type: z.number().int().min(1).max(6),
  score: count.max(10_000_000),
  max_chain: count,
  critical: count,
  near: count,
  error: count,
  early: count.nullable().optional(),
  late: count.nullable().optional(),
  gauge_rate: z.number().min(0).max(100),
  timestamp: time,
});

function problem(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || 'item'}: ${i.message}`).join('; ');
}

/** One play of `/api/iidx/v2/play_history` → a score element (chart by in-game id in the play's version). */
export function convertKaiIidx(raw: unknown): ConvertedItem {
  const parsed = IIDX_ITEM.safeParse(raw);
  if (!parsed.success) return { kind: 'error', message: `Invalid play: ${problem(parsed.error)}.` };
  const p = parsed.data;
  if (p.difficulty === 'BEGINNER') return { kind: 'skip', reason: 'on BEGINNER charts, which are not tracked' };
  const version = String(p.version_played);
  if (!Object.hasOwn(IIDX.gpts.SP.versions, version)) return { kind: 'error', message: `Unsupported version ${p.version_played}.` };
  const legacy = legacyLeggendaria(p.music_id);
  const bp = p.miss_count === undefined || p.miss_count === null || p.miss_count === -1 ? null : p.miss_count;
  return {
    kind: 'score',
    playtype: p.play_style === 'SINGLE' ? 'SP' : 'DP',
    version,
    element: {
      matchType: 'inGameID',
      identifier: String(legacy ?? p.music_id),
      difficulty: legacy !== undefined ? 'LEGGENDARIA' : p.difficulty,
      score: p.ex_score,
      lamp: EX_LAMPS[p.lamp],
      judgements: {},
      optional: { fast: p.fast_count ?? null, slow: p.slow_count ?? null, bp },
      timeAchieved: Date.parse(p.timestamp),
    },
  };
}

/** One play of `/api/sdvx/v1/play_history` → a score element (chart by in-game id in the play's version). */
export function convertKaiSdvx(raw: unknown): ConvertedItem {
  const parsed = SDVX_ITEM.safeParse(raw);
  if (!parsed.success) return { kind: 'error', message: `Invalid play: ${problem(parsed.error)}.` };
  const p = parsed.data;
  return {
    kind: 'score',
    version: EAMUSEMENT_SDVX_VERSIONS[p.played_version],
    element: {
      matchType: 'sdvxInGameID',
      identifier: String(p.music_id),
      difficulty: EAMUSEMENT_SDVX_DIFFICULTIES[p.music_difficulty],
      score: p.score,
      lamp: EAMUSEMENT_SDVX_LAMPS[p.clear_type],
      judgements: { critical: p.critical, near: p.near, miss: p.error },
      optional: { fast: p.early ?? null, slow: p.late ?? null, maxCombo: p.max_chain, gauge: p.gauge_rate },
      timeAchieved: Date.parse(p.timestamp),
    },
  };
}

/** What a KAI sync stores as its import's input: the fetched plays and the dans the service reports, by playtype. */
const INPUT = z.object({ items: z.array(z.unknown()), classes: z.record(z.string(), z.string()).optional() });

/** The version the first play names (IIDX: "28"; SDVX: "exceed"), or null. */
function versionOf(game: 'iidx' | 'sdvx', items: readonly unknown[]): string | null {
  const first = items[0] as { version_played?: unknown; played_version?: unknown } | undefined;
  if (game === 'iidx')
    return typeof first?.version_played === 'number' && Object.hasOwn(IIDX.gpts.SP.versions, String(first.version_played))
      ? String(first.version_played)
      : null;
  return typeof first?.played_version === 'number' ? (EAMUSEMENT_SDVX_VERSIONS[first.played_version] ?? null) : null;
}

function kaiType(service: 'flo' | 'eag' | 'min', game: 'iidx' | 'sdvx'): ImportType {
  return {
    name: `api/${service}-${game}`,
    read: () => {
      throw new ImportRejectedError(`api/${service}-${game} is imported through POST /import/from-api.`);
    },
    parse: (input, { maxScores }): ParsedImport => {
      const parsed = INPUT.safeParse(input);
      if (!parsed.success) throw new ImportRejectedError(`Invalid ${SERVICES[service]} sync input.`);
      if (parsed.data.items.length > maxScores)
        throw new ImportRejectedError(`The sync brought ${parsed.data.items.length} plays, more than ${maxScores}.`, 413);
      const classes = parsed.data.classes ?? {};
      // The import's own batch (which carries the classes) is the newest play's version, so that the dans land with its scores.
      const version = versionOf(game, parsed.data.items);
      if (game === 'sdvx') return { gpt: SDVX.gpts.Single, context: { service: SERVICES[service], version }, classes, items: parsed.data.items };
      // IIDX: classes are keyed "SP.dan"/"DP.dan" by the source; the import's GPT is SP, DP's dan goes to its playtype.
      const sp: Record<string, string> = {};
      const dp: Record<string, string> = {};
      for (const [key, value] of Object.entries(classes)) (key.startsWith('DP.') ? dp : sp)[key.replace(/^(SP|DP)\./, '')] = value;
      return {
        gpt: IIDX.gpts.SP,
        context: { service: SERVICES[service], version },
        classes: sp,
        ...(Object.keys(dp).length ? { playtypeClasses: { DP: dp } } : {}),
        items: parsed.data.items,
      };
    },
    convert: (item) => (game === 'iidx' ? convertKaiIidx(item) : convertKaiSdvx(item)),
  };
}

export const KAI_IMPORT_TYPES: readonly ImportType[] = [
  kaiType('flo', 'iidx'),
  kaiType('eag', 'iidx'),
  kaiType('flo', 'sdvx'),
  kaiType('eag', 'sdvx'),
  kaiType('min', 'sdvx'),
];
