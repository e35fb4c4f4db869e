import { sleep } from './cluster.js';

/**
 * The mixed load: hook submissions (kshook's per-play save, answered inline), file imports (queued, then
 * polled), reads and logins, spread over the API processes. Every answer is recorded, with what the client
 * was told, so that the checks can hold the deployment to it.
 */

export type OpKind = 'hook' | 'file' | 'poll' | 'read' | 'login';

export interface Outcome {
  op: OpKind;
  /** HTTP status, or 0 when the connection failed or timed out (nothing was answered). */
  status: number;
  ms: number;
  at: number;
  api: string;
  message?: string;
  /** The server's X-Request-Id of a 5xx answer: its log line says the cause. */
  requestId?: string;
}

export interface Player {
  id: number;
  username: string;
  password: string;
  token: string;
  /** The dan the next file import claims (a raised class is one webhook event). */
  nextDan: number;
  /** When they first had a score (a hook answered 200 with one, or an import completed): only then do the UGPT reads answer 200. */
  playedAt?: number;
}

export interface AcceptedImport {
  importID: string;
  userID: number;
  scores: number;
  acceptedAt: number;
  /** completed, or the status the poll answered with when it failed. */
  final?: { status: 'completed'; document: ImportDocumentLike; at: number } | { status: 'failed'; code: number; message: string; at: number };
}

export interface ImportDocumentLike {
  importID: string;
  userID: number;
  scoreIDs: string[];
  classDeltas: { game: string; playtype: string; set: string; old: string | null; new: string }[];
}

export interface HookAnswer {
  userID: number;
  scoreIDs: string[];
  at: number;
}

const SDVX_DANS = ['DAN_1', 'DAN_2', 'DAN_3', 'DAN_4', 'DAN_5', 'DAN_6', 'DAN_7', 'DAN_8', 'DAN_9', 'DAN_10', 'DAN_11', 'INF'];
const KSHOOK_DIFFICULTY: Record<string, string> = {
  NOV: 'DIFFICULTY_NOVICE',
  ADV: 'DIFFICULTY_ADVANCED',
  EXH: 'DIFFICULTY_EXHAUST',
  MXM: 'DIFFICULTY_MAXIMUM',
};
const KSHOOK_HEADERS = { 'User-Agent': 'kshook/1.0.4', 'X-Software-Model': 'QCV:J:B:A:2023121200' };
const T0 = Date.UTC(2024, 0, 15, 12);

export interface Chart {
  inGameID: number;
  difficulty: string;
}

/** What one window of the load recorded (a fault's, or a soak sample's). */
export class Window {
  readonly outcomes: Outcome[] = [];
  readonly accepted: AcceptedImport[] = [];
  readonly hooks: HookAnswer[] = [];
  constructor(
    readonly name: string,
    readonly startedAt = Date.now(),
  ) {}
  endedAt?: number;
}

export class Load {
  private stopped = true;
  private loops: Promise<void>[] = [];
  private rr = 0;
  private counter = 0;
  readonly windows: Window[] = [];
  /** Every accepted import not yet final, polled as a client would. */
  readonly pending = new Set<AcceptedImport>();
  readonly all = { outcomes: 0, hooks: 0, accepted: 0, scoresAnswered: 0 };

  constructor(
    private readonly apis: () => string[],
    readonly players: Player[],
    private readonly charts: Chart[],
    /**
     * maxPendingImports: file imports accepted and not yet final at any time, as clients that wait for their import
     * (the workers' pace: 2 × IMPORT_WORKER_CONCURRENCY at IMPORT_STEP_PAUSE_MS per step); past it the loop reads instead.
     */
    private readonly options: { concurrency: number; scoresPerFile: number; maxPendingImports: number },
  ) {}

  get current(): Window | undefined {
    return this.windows[this.windows.length - 1];
  }

  window(name: string): Window {
    if (this.current) this.current.endedAt = Date.now();
    const w = new Window(name);
    this.windows.push(w);
    return w;
  }

  start() {
    this.stopped = false;
    for (let i = 0; i < this.options.concurrency; i++) this.loops.push(this.loop(i));
    this.loops.push(this.pollLoop());
  }

  async stop() {
    this.stopped = true;
    await Promise.all(this.loops);
    this.loops = [];
  }

  private pick<T>(list: readonly T[]): T {
    return list[Math.floor(Math.random() * list.length)];
  }

  private nextApi(): string {
    const apis = this.apis();
    this.rr = (this.rr + 1) % apis.length;
    return apis[this.rr];
  }

  /** One request to one API process, recorded in the current window. */
  async request(op: OpKind, path: string, init: RequestInit = {}, api = this.nextApi()): Promise<{ status: number; body: unknown }> {
    const at = Date.now();
    let status: number;
    let body: unknown;
    let message: string | undefined;
    let requestId: string | undefined;
    try {
      const res = await fetch(api + path, { ...init, signal: AbortSignal.timeout(30_000) });
      status = res.status;
      const text = await res.text();
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
      if (status >= 500) requestId = res.headers.get('x-request-id') ?? undefined;
      if (status >= 400)
        message = typeof body === 'object' && body && 'message' in body ? String((body as { message: unknown }).message) : String(text).slice(0, 200);
    } catch (err) {
      status = 0;
      message = (err as Error).cause ? String((err as { cause: unknown }).cause) : (err as Error).message;
    }
    const outcome: Outcome = { op, status, ms: Date.now() - at, at, api, ...(message ? { message } : {}), ...(requestId ? { requestId } : {}) };
    this.current?.outcomes.push(outcome);
    this.all.outcomes++;
    return { status, body };
  }

  private async loop(i: number) {
    await sleep(i * 37);
    while (!this.stopped) {
      const r = Math.random();
      try {
        if (r < 0.3) await this.hook();
        else if (r < 0.38 && this.pending.size < this.options.maxPendingImports) await this.fileImport();
        else if (r < 0.92) await this.read();
        else await this.login();
      } catch (err) {
        console.error(`load: ${(err as Error).message}`);
      }
      await sleep(20);
    }
  }

  async hook(player = this.pick(this.players)) {
    const chart = this.pick(this.charts);
    const body = {
      score: 9_000_000 + Math.floor(Math.random() * 999_999),
      ex_score: 3000,
      clear: 'CLEAR_EFFECTIVE',
      difficulty: KSHOOK_DIFFICULTY[chart.difficulty],
      grade: 'GRADE_AAA',
      max_chain: 1200,
      music_id: chart.inGameID,
      gauge: 8000,
      critical: 1180,
      near: 15,
      error: 5,
      rate: 'RATE_EFFECTIVE',
      track_no: 1,
      retry_count: 0,
    };
    const res = await this.request('hook', '/ir/kshook/sv6c/score/save', {
      method: 'POST',
      headers: { ...KSHOOK_HEADERS, Authorization: `Bearer ${player.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (res.status === 200) {
      const doc = (res.body as { body?: ImportDocumentLike }).body;
      const answer = { userID: player.id, scoreIDs: doc?.scoreIDs ?? [], at: Date.now() };
      if (answer.scoreIDs.length) player.playedAt ??= Date.now();
      this.current?.hooks.push(answer);
      this.all.hooks++;
      this.all.scoresAnswered += answer.scoreIDs.length;
    }
    return res;
  }

  /** A batch-manual file import of `scoresPerFile` new scores, claiming the player's next dan; polled until final by pollLoop. */
  async fileImport(player = this.pick(this.players)): Promise<AcceptedImport | undefined> {
    const n = this.options.scoresPerFile;
    const base = ++this.counter;
    const scores = Array.from({ length: n }, (_, i) => {
      const chart = this.pick(this.charts);
      return {
        matchType: 'sdvxInGameID',
        identifier: String(chart.inGameID),
        difficulty: chart.difficulty,
        score: 8_000_000 + Math.floor(Math.random() * 1_999_999),
        lamp: 'CLEAR',
        // A minute apart, each import after the last: 17,000 imports (a 30-minute soak) stay well before today.
        timeAchieved: T0 + (base * n + i) * 60_000,
      };
    });
    const document: Record<string, unknown> = { meta: { game: 'sdvx', playtype: 'Single', service: 'chaos' }, scores };
    if (player.nextDan < SDVX_DANS.length) document.classes = { dan: SDVX_DANS[player.nextDan++] };
    const form = new FormData();
    form.set('importType', 'file/batch-manual');
    form.set('scoreData', new Blob([JSON.stringify(document)], { type: 'application/json' }), 'scores.json');
    const res = await this.request('file', '/api/v1/import/file', { method: 'POST', headers: { Authorization: `Bearer ${player.token}` }, body: form });
    if (res.status !== 202) return undefined;
    const accepted: AcceptedImport = { importID: (res.body as { importID: string }).importID, userID: player.id, scores: n, acceptedAt: Date.now() };
    this.current?.accepted.push(accepted);
    this.pending.add(accepted);
    this.all.accepted++;
    return accepted;
  }

  async read() {
    // A player's game pages answer 404 until they have a score; these anonymous reads may go to a replica, which may be
    // up to REPLICA_MAX_LAG_MS (2 s here) behind.
    const played = this.players.filter((p) => p.playedAt !== undefined && p.playedAt < Date.now() - 3000);
    if (!played.length) return this.request('read', `/api/v1/users/${this.pick(this.players).id}`);
    const p = this.pick(played);
    const paths = [
      `/api/v1/users/${p.id}`,
      `/api/v1/users/${p.id}/games/sdvx/Single/pbs/best`,
      `/api/v1/users/${p.id}/games/sdvx/Single/scores/recent`,
      `/api/v1/users/${p.id}/games/sdvx/Single`,
      `/api/v1/games/sdvx/Single/charts?search=1`,
      `/api/v1/users/${p.id}/games/sdvx/Single/sessions/recent`,
    ];
    return this.request('read', this.pick(paths));
  }

  async login() {
    const p = this.pick(this.players);
    return this.request('login', '/api/v1/auth/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: p.username, '!password': p.password }),
    });
  }

  /** Polls every pending import, as its client would, until it is completed or failed. */
  private async pollLoop() {
    while (!this.stopped || this.pending.size) {
      await this.pollOnce();
      await sleep(300);
      if (this.stopped && this.pending.size) {
        // Stopping: finish polling what is pending (the checks wait for it).
        continue;
      }
    }
  }

  async pollOnce() {
    await Promise.all(
      [...this.pending].map(async (imp) => {
        const res = await this.request('poll', `/api/v1/imports/${imp.importID}/poll-status`);
        if (res.status === 200) {
          const body = res.body as { importStatus: string; import?: ImportDocumentLike };
          if (body.importStatus === 'completed' && body.import) {
            if (body.import.scoreIDs.length) {
              const player = this.players.find((p) => p.id === imp.userID);
              if (player) player.playedAt ??= Date.now();
            }
            imp.final = { status: 'completed', document: body.import, at: Date.now() };
            this.all.scoresAnswered += body.import.scoreIDs.length;
            this.pending.delete(imp);
          }
        } else if (res.status >= 400 && res.status !== 503 && res.status !== 404) {
          imp.final = { status: 'failed', code: res.status, message: String((res.body as { message?: string })?.message ?? ''), at: Date.now() };
          this.pending.delete(imp);
        }
      }),
    );
  }

  /** Resolves once every import the window (or, stopped, the whole load) accepted is final, or after `timeoutMs`; true if all are. */
  async settle(timeoutMs: number, w?: Window): Promise<boolean> {
    const until = Date.now() + timeoutMs;
    const open = () => (w ? w.accepted.filter((a) => !a.final).length : this.pending.size);
    while (open() && Date.now() < until) await sleep(200);
    return open() === 0;
  }
}

/** The p-th percentile (0..100) of a list of numbers. */
export function percentile(values: number[], p: number): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
