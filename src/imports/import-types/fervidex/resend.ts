import { canonicalJson } from '../../../common/canonical-json.js';
import type { GptSupport } from '../../../game-support/types.js';
import type { ScoreRow } from '../../../repositories/scores.repository.js';
import { computeScoreID } from '../../import-pipeline.js';
import { validateScoreElement } from '../../score-element.js';

/**
 * How many of the user's latest scores a play is compared with. Fervidex sends a play again right
 * after the first (a retry, or the result screen's highlight), so the first is among the latest.
 */
export const RESEND_WINDOW = 50;

/**
 * The stored score a Fervidex play repeats, if any. A play's time is when it arrived, so a re-send
 * would otherwise be a new score: it is the same play when, taking the stored score's time, it gets
 * the stored score's id (same chart, EX score, lamp and judgements) and the same fast/slow, combo
 * breaks and gauge history, which no two plays share.
 */
export function resentScoreOf(element: unknown, latest: readonly ScoreRow[], userID: number, gpt: GptSupport): ScoreRow | undefined {
  const v = validateScoreElement(element, 0, gpt, Date.now());
  if (!v.ok) return undefined;
  const sent = Object.entries(v.candidate.input.optional);
  return latest.find(
    (row) =>
      row.importType === 'ir/fervidex' &&
      row.timeAchieved !== null &&
      computeScoreID(userID, row.chartID, { ...v.candidate, timeAchieved: row.timeAchieved }, gpt) === row.scoreID &&
      sent.every(([metric, value]) => canonicalJson(value ?? null) === canonicalJson(row.scoreData.optional[metric] ?? null)),
  );
}
