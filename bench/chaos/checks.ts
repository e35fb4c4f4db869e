import pg from 'pg';
import type { Window } from './load.js';

/** A check's verdict: `ok`, with what it looked at (`detail`). */
export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

export interface ReceivedWebhook {
  body: string;
  at: number;
}

const DANS = ['DAN_1', 'DAN_2', 'DAN_3', 'DAN_4', 'DAN_5', 'DAN_6', 'DAN_7', 'DAN_8', 'DAN_9', 'DAN_10', 'DAN_11', 'INF'];

/** Runs a query on the primary in a client of its own (the deployment's pools are not involved). */
export async function query<T extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/**
 * What a window's clients were told, against what the primary stores: accepted imports stored once and whole,
 * hook answers stored, no half-written score, no unexpected 5xx.
 */
export async function storageChecks(url: string, w: Window, dependencyDown: { from: number; to: number } | undefined): Promise<Check[]> {
  const checks: Check[] = [];
  // Imports answered 202 (accepted): each completed, its row once, every score it reported stored under it.
  const accepted = w.accepted;
  const notFinal = accepted.filter((a) => !a.final);
  const failed = accepted.filter((a) => a.final?.status === 'failed');
  const ids = accepted.map((a) => a.importID);
  const rows = ids.length
    ? await query<{ import_id: string; status: string; n: string }>(
        url,
        `SELECT i.import_id, i.status, (SELECT count(*) FROM scores s WHERE s.import_id = i.import_id) AS n FROM imports i WHERE i.import_id = ANY($1)`,
        [ids],
      )
    : [];
  const byID = new Map(rows.map((r) => [r.import_id, r]));
  const wrong = accepted.filter((a) => {
    const row = byID.get(a.importID);
    return (
      !row || row.status !== 'completed' || Number(row.n) !== a.scores || (a.final?.status === 'completed' && a.final.document.scoreIDs.length !== a.scores)
    );
  });
  checks.push({
    name: 'accepted imports stored once',
    ok: !notFinal.length && !failed.length && !wrong.length,
    detail:
      `${accepted.length} accepted, ${accepted.length - notFinal.length - failed.length} completed` +
      (notFinal.length ? `, ${notFinal.length} never finished (${notFinal[0].importID})` : '') +
      (failed.length ? `, ${failed.length} failed (${failed[0].final?.status === 'failed' ? `${failed[0].final.code} ${failed[0].final.message}` : ''})` : '') +
      (wrong.length ? `, ${wrong.length} not stored whole (${wrong[0].importID}: ${JSON.stringify(byID.get(wrong[0].importID) ?? 'no row')})` : ''),
  });

  // Hook submissions answered 200: every score id the answer named is stored.
  const hookIDs = [...new Set(w.hooks.flatMap((h) => h.scoreIDs))];
  const stored = hookIDs.length ? await query<{ n: string }>(url, `SELECT count(*) AS n FROM scores WHERE score_id = ANY($1)`, [hookIDs]) : [{ n: '0' }];
  checks.push({
    name: 'hook answers (200) stored',
    ok: Number(stored[0].n) === hookIDs.length,
    detail: `${w.hooks.length} answered 200 naming ${hookIDs.length} scores; ${stored[0].n} stored`,
  });

  // No half-written score anywhere: every score's import completed, every score has its PB.
  const [half] = await query<{ orphaned: string; no_pb: string; unfinished_rows: string }>(
    url,
    `SELECT
       (SELECT count(*) FROM scores s JOIN imports i ON i.import_id = s.import_id WHERE i.status <> 'completed') AS orphaned,
       (SELECT count(*) FROM scores s WHERE NOT EXISTS (SELECT 1 FROM personal_bests p WHERE p.user_id = s.user_id AND p.chart_id = s.chart_id)) AS no_pb,
       (SELECT count(*) FROM imports WHERE status = 'completed' AND input IS NOT NULL) AS unfinished_rows`,
  );
  checks.push({
    name: 'no half-written score',
    ok: Number(half.orphaned) === 0 && Number(half.no_pb) === 0,
    detail: `scores of unfinished imports: ${half.orphaned}; scores without their PB: ${half.no_pb}`,
  });

  // Answers: no 5xx but 503, and 503 only while a dependency was down (and until the process was ready again).
  const bad = w.outcomes.filter(
    (o) => (o.status >= 500 && o.status !== 503) || (o.status === 503 && !(dependencyDown && o.at >= dependencyDown.from - 1000 && o.at <= dependencyDown.to)),
  );
  const count503 = w.outcomes.filter((o) => o.status === 503).length;
  const lost = w.outcomes.filter((o) => o.status === 0).length;
  const unexpected4xx = w.outcomes.filter((o) => o.status >= 400 && o.status < 500 && !(o.status === 409 && (o.op === 'hook' || o.op === 'file')));
  checks.push({
    name: 'no 5xx but 503 while down',
    ok: !bad.length && !unexpected4xx.length,
    detail:
      `${w.outcomes.length} answers, ${count503} × 503, ${lost} connections lost` +
      (bad.length
        ? `; ${bad.length} bad, e.g. ${bad[0].op} ${bad[0].status} ${bad[0].message ?? ''} (${bad[0].at - (dependencyDown?.to ?? bad[0].at)} ms after ready` +
          `${bad[0].requestId ? `, request ${bad[0].requestId}` : ''})`
        : '') +
      (unexpected4xx.length
        ? `; ${unexpected4xx.length} unexpected 4xx, e.g. ${unexpected4xx[0].op} ${unexpected4xx[0].status} ${unexpected4xx[0].message ?? ''}`
        : ''),
  });
  return checks;
}

/**
 * No stuck import lock: none held for an import that is over, none whose heartbeat (every 5 s while its holder lives) is
 * older than 15 s. (The load goes on: locks of running imports come and go.)
 */
export async function lockCheck(url: string): Promise<Check> {
  const [row] = await query<{ n: string; held: string }>(
    url,
    `SELECT count(*) FILTER (WHERE i.status IN ('completed', 'failed') OR l.heartbeat < $1) AS n, count(*) AS held
       FROM import_locks l LEFT JOIN imports i ON i.import_id = l.owner`,
    [Date.now() - 15_000],
  );
  return {
    name: 'no stuck import lock',
    ok: Number(row.n) === 0,
    detail: `${row.held} held now, ${row.n} of them stuck (import over, or no heartbeat for 15 s)`,
  };
}

/**
 * Webhooks once per event: each raised dan the completed imports told their clients of arrives exactly once,
 * and no event arrives twice.
 */
export function webhookCheck(windows: Window[], received: ReceivedWebhook[]): Check {
  const counts = new Map<string, number>();
  for (const r of received) {
    const body = JSON.parse(r.body) as { type: string; content: { userID: number; set?: string; old?: string | null; new?: string } };
    if (body.type !== 'class-update/v1') continue;
    const key = `${body.content.userID}:${body.content.set}:${body.content.old}:${body.content.new}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const expected: string[] = [];
  for (const w of windows)
    for (const a of w.accepted) {
      if (a.final?.status !== 'completed') continue;
      for (const d of a.final.document.classDeltas) {
        if (d.set !== 'dan') continue;
        if (d.old === null || DANS.indexOf(d.new) > DANS.indexOf(d.old)) expected.push(`${a.userID}:${d.set}:${d.old}:${d.new}`);
      }
    }
  const missing = expected.filter((k) => !counts.get(k));
  const twice = [...counts].filter(([, n]) => n > 1);
  return {
    name: 'webhooks once per event',
    ok: !missing.length && !twice.length,
    detail:
      `${expected.length} dan raises told, ${received.length} deliveries received` +
      (missing.length ? `; ${missing.length} never delivered (${missing[0]})` : '') +
      (twice.length ? `; ${twice.length} delivered more than once (${twice[0][0]} × ${twice[0][1]})` : ''),
  };
}
