import { z } from 'zod';
import { BMS } from '../../../game-support/bms/index.js';
import { ImportRejectedError } from '../../import-errors.js';
import type { ConvertedItem, ImportRequest, ImportType, ParsedImport } from '../types.js';

export const SERVICE = 'LR2Hook';
export const BMS_7K = BMS.gpts['7K'];

const count = z.number().int().nonnegative();
/** A gauge graph: LR2Hook samples the gauge 1000 times over the chart. */
const graph = z.array(z.number().int().min(0).max(100)).length(1000);

/** LR2Hook's payload, for both routes (the course route's md5 holds the course's four chart MD5s). Extra keys are allowed. */
export const lr2hookBody = z.looseObject({
  md5: z.string(),
  playerData: z.looseObject({
    autoScr: z.literal(0, { error: 'must be 0: with auto-scratch on, LR2 counts a clear as an easy clear, so such plays are not accepted' }),
    gameMode: z.unknown(),
    random: z.enum(['NORAN', 'MIRROR', 'RAN', 'S-RAN']),
    gauge: z.enum(['GROOVE', 'EASY', 'HARD', 'HAZARD', 'P-ATTACK', 'G-ATTACK']),
    rseed: z.number().int().min(0).max(32766).nullish(),
  }),
  scoreData: z.looseObject({
    pgreat: count,
    great: count,
    good: count,
    bad: count,
    poor: count,
    maxCombo: count,
    exScore: count,
    moneyScore: count,
    notesTotal: count,
    notesPlayed: count,
    lamp: z.enum(['NO PLAY', 'FAIL', 'EASY', 'NORMAL', 'HARD', 'FULL COMBO']),
    hpGraph: graph,
    extendedJudgements: z
      .looseObject({
        epg: count,
        lpg: count,
        egr: count,
        lgr: count,
        egd: count,
        lgd: count,
        ebd: count,
        lbd: count,
        epr: count,
        lpr: count,
        cb: count,
        fast: count,
        slow: count,
        notesPlayed: count,
      })
      .nullish(),
    extendedHpGraphs: z.looseObject({ groove: graph, hard: graph, hazard: graph, easy: graph, pattack: graph, gattack: graph }).nullish(),
  }),
  /** Unix seconds; without it the score is dated when it arrives. */
  unixTimestamp: count.nullish(),
});
export type Lr2hookBody = z.infer<typeof lr2hookBody>;

/** The kept input: the body and when it arrived (the score's time when the body carries none). */
export interface Lr2hookInput {
  body: unknown;
  receivedAt: number;
}

export interface Lr2hookItem {
  payload: Lr2hookBody;
  receivedAt: number;
}

export const LAMPS: Readonly<Record<Lr2hookBody['scoreData']['lamp'], string>> = {
  'NO PLAY': 'NO PLAY',
  FAIL: 'FAILED',
  EASY: 'EASY CLEAR',
  NORMAL: 'CLEAR',
  HARD: 'HARD CLEAR',
  'FULL COMBO': 'FULL COMBO',
};

export const RANDOMS: Readonly<Record<Lr2hookBody['playerData']['random'], string>> = {
  NORAN: 'NONRAN',
  MIRROR: 'MIRROR',
  RAN: 'RANDOM',
  'S-RAN': 'S-RANDOM',
};

/** LR2's gauges → the BMS gauge option: the attack and hazard gauges are hard gauges. */
export const GAUGES: Readonly<Record<Lr2hookBody['playerData']['gauge'], string>> = {
  GROOVE: 'NORMAL',
  EASY: 'EASY',
  HARD: 'HARD',
  HAZARD: 'HARD',
  'P-ATTACK': 'HARD',
  'G-ATTACK': 'HARD',
};

function issues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${i.path.length ? i.path.join('.') : 'body'}: ${i.message}`)
    .join('; ');
}

/** Checks a body as a whole: any problem rejects the request with a 400 that says where. */
export function checkLr2hookBody(body: unknown): Lr2hookBody {
  const parsed = lr2hookBody.safeParse(body);
  if (!parsed.success) throw new ImportRejectedError(`Invalid LR2Hook request: ${issues(parsed.error)}.`);
  return parsed.data;
}

export function readLr2hook({ body }: ImportRequest): Lr2hookInput {
  return { body, receivedAt: Date.now() };
}

/** One score, on the BMS 7K charts. */
export function parseLr2hook(input: unknown): ParsedImport<Lr2hookItem> {
  const { body, receivedAt } = (input ?? {}) as Partial<Lr2hookInput>;
  if (typeof receivedAt !== 'number') throw new ImportRejectedError('The stored LR2Hook input has no receive time.');
  return { gpt: BMS_7K, context: { service: SERVICE, version: null }, classes: {}, items: [{ payload: checkLr2hookBody(body), receivedAt }] };
}

/**
 * The payload → a score element on the chart of that MD5 (or SHA256). BP counts the notes not
 * played: without extended judgements it is known only for a chart played to its end.
 */
export function convertLr2hook({ payload, receivedAt }: Lr2hookItem): ConvertedItem {
  const { playerData: player, scoreData: score } = payload;
  const ext = score.extendedJudgements ?? null;
  const graphs = score.extendedHpGraphs ?? null;
  let bp: number | null = null;
  if (ext) bp = score.bad + score.poor + score.notesTotal - ext.notesPlayed;
  else if (score.notesPlayed === score.notesTotal) bp = score.bad + score.poor;
  const { unixTimestamp } = payload;
  return {
    kind: 'score',
    element: {
      score: score.exScore,
      lamp: LAMPS[score.lamp],
      matchType: 'bmsChartHash',
      identifier: payload.md5,
      timeAchieved: unixTimestamp === null || unixTimestamp === undefined ? receivedAt : unixTimestamp * 1000,
      judgements: { pgreat: score.pgreat, great: score.great, good: score.good, bad: score.bad, poor: score.poor },
      optional: {
        maxCombo: score.maxCombo,
        bp,
        gauge: score.hpGraph[score.hpGraph.length - 1],
        gaugeHistory: score.hpGraph,
        ...(ext && {
          fast: ext.fast,
          slow: ext.slow,
          epg: ext.epg,
          lpg: ext.lpg,
          egr: ext.egr,
          lgr: ext.lgr,
          egd: ext.egd,
          lgd: ext.lgd,
          ebd: ext.ebd,
          lbd: ext.lbd,
          epr: ext.epr,
          lpr: ext.lpr,
        }),
        ...(graphs && { gaugeHistoryEasy: graphs.easy, gaugeHistoryGroove: graphs.groove, gaugeHistoryHard: graphs.hard }),
      },
      scoreMeta: { client: 'LR2', random: RANDOMS[player.random], gauge: GAUGES[player.gauge] },
    },
  };
}

/** `ir/lr2hook`: one LR2Hook score on the BMS 7K charts (`POST /ir/lr2hook/import`). */
export const lr2hook: ImportType<Lr2hookItem> = {
  name: 'ir/lr2hook',
  // Only newer hooks send unixTimestamp; older ones' times are receipts, so times cannot tell plays apart.
  timesIdentifyPlays: false,
  read: readLr2hook,
  parse: (input) => parseLr2hook(input),
  convert: convertLr2hook,
};
