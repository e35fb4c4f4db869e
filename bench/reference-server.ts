import http from 'node:http';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { findGame } from '../src/game-support/registry.js';
import type { GptSupport } from '../src/game-support/types.js';
import { containsPattern } from '../src/database/like.js';

/**
 * The reads benchmark's reference (issue 14): what the data of six read endpoints costs, served by
 * a bare node:http server over a pg.Pool, with nothing of the app's stack (no Nest, Express or
 * Drizzle). Each request is one SQL statement; song and chart documents come from an in-process
 * catalog loaded at boot; the JSON body is concatenated as a string. Bodies are byte for byte the
 * app's (API_PROFILE=spec, default query parameters), as test/e2e/reference-server.e2e-spec.ts
 * proves; the bench checks a sample again before timing.
 *
 * Served (any game and playtype of the registry; :userID numeric only, no usernames or `me`):
 *   /api/v1/users/:userID/games/:game/:playtype/pbs/best
 *   /api/v1/users/:userID/games/:game/:playtype/scores/recent
 *   /api/v1/users/:userID/games/:game/:playtype/leaderboard-adjacent
 *   /api/v1/games/:game/:playtype/leaderboard
 *   /api/v1/games/:game/:playtype/charts/:chartID/pbs
 *   /api/v1/games/:game/:playtype/charts[?search=<text>]
 * Anything else (other paths, query parameters, methods) is a bare 404 (400 for a search the app
 * would refuse). The catalog is read once: restart the server after a seed load.
 *
 * Run: `node dist-bench/bench/reference-server.js` with DATABASE_URL and PORT; prints
 * `READY http://127.0.0.1:<port>` once listening.
 */

/** The app's default list sizes: UGPT_LIST_LIMIT, CHART_PBS_PAGE, LEADERBOARD_LIMIT.default, CHART_LIST_LIMIT, ADJACENT_LIMIT. */
const LIST = 100;
const ADJACENT = 5;
/** ChartSearchQuery's MaxLength. */
const MAX_SEARCH = 200;

type Row = Record<string, unknown>;

const str = (v: unknown) => JSON.stringify(v);
/** A unixMs (int8) column as the app's Drizzle maps it: Number, null kept. */
const ms = (v: unknown) => (v === null ? 'null' : String(Number(v)));
const int = (v: unknown) => String(Number(v));

/** The catalog of one game, as the app's CatalogCache serves it: documents as JSON text. */
interface GameCatalog {
  songs: Map<number, string>;
  /** Chart documents; `open` lacks the closing brace (the chart list appends __playcount). */
  charts: Map<string, { json: string; open: string }>;
}

async function loadCatalog(pool: pg.Pool): Promise<Map<string, GameCatalog>> {
  const catalog = new Map<string, GameCatalog>();
  const of = (game: string) => {
    let c = catalog.get(game);
    if (!c) catalog.set(game, (c = { songs: new Map(), charts: new Map() }));
    return c;
  };
  const songs = await pool.query<Row>('SELECT game, id, title, artist, alt_titles, search_terms, data FROM songs');
  for (const s of songs.rows)
    of(s.game as string).songs.set(
      s.id as number,
      `{"id":${int(s.id)},"title":${str(s.title)},"artist":${str(s.artist)},"altTitles":${str(s.alt_titles)},"searchTerms":${str(s.search_terms)},"data":${str(s.data)}}`,
    );
  const charts = await pool.query<Row>('SELECT game, chart_id, song_id, playtype, difficulty, level, level_num, is_primary, versions, data FROM charts');
  for (const c of charts.rows) {
    const open = `{"chartID":${str(c.chart_id)},"songID":${int(c.song_id)},"playtype":${str(c.playtype)},"difficulty":${str(c.difficulty)},"level":${str(c.level)},"levelNum":${str(c.level_num)},"isPrimary":${str(c.is_primary)},"versions":${str(c.versions)},"data":${str(c.data)}`;
    of(c.game as string).charts.set(c.chart_id as string, { json: `${open}}`, open });
  }
  return catalog;
}

// ---------------------------------------------------------------------------------------------
// Documents (src/presenters: user, game stats, PB, score), built as strings in the same key order.

const USER_COLUMNS = `u.id AS u_id, u.username AS u_username, u.username_lowercase AS u_username_lowercase, u.social_media AS u_social_media,
  u.join_date AS u_join_date, u.last_seen AS u_last_seen, u.about AS u_about, u.status AS u_status, u.custom_pfp_location AS u_custom_pfp_location,
  u.custom_banner_location AS u_custom_banner_location, u.clan AS u_clan, u.badges AS u_badges, u.auth_level AS u_auth_level`;

function userDoc(r: Row): string {
  return `{"id":${int(r.u_id)},"username":${str(r.u_username)},"usernameLowercase":${str(r.u_username_lowercase)},"socialMedia":${str(r.u_social_media)},"joinDate":${ms(r.u_join_date)},"lastSeen":${ms(r.u_last_seen)},"about":${str(r.u_about)},"status":${str(r.u_status)},"customPfpLocation":${str(r.u_custom_pfp_location)},"customBannerLocation":${str(r.u_custom_banner_location)},"clan":${str(r.u_clan ?? null)},"badges":${str(r.u_badges)},"authLevel":${int(r.u_auth_level)}}`;
}

/** Users of rows (u_* columns), each once, in the order the rows name them (RelatedDocuments.users). */
function usersOf(rows: Row[]): string {
  const seen = new Set<number>();
  const out: string[] = [];
  for (const r of rows) {
    if (r.u_id === null || r.u_id === undefined || seen.has(r.u_id as number)) continue;
    seen.add(r.u_id as number);
    out.push(userDoc(r));
  }
  return `[${out.join(',')}]`;
}

const STATS_COLUMNS = (g: string) => `${g}.user_id, ${g}.game, ${g}.playtype, ${g}.ratings, ${g}.classes`;

function statsDoc(r: Row): string {
  return `{"userID":${int(r.user_id)},"game":${str(r.game)},"playtype":${str(r.playtype)},"ratings":${str(r.ratings)},"classes":${str(r.classes)}}`;
}

const PB_COLUMNS = `p.user_id, p.chart_id, p.song_id, p.game, p.playtype, p.is_primary, p.score_data, p.calculated_data, p.composed_from, p.time_achieved, p.highlighted`;

function pbDoc(r: Row): string {
  return `{"userID":${int(r.user_id)},"chartID":${str(r.chart_id)},"songID":${int(r.song_id)},"game":${str(r.game)},"playtype":${str(r.playtype)},"isPrimary":${str(r.is_primary)},"scoreData":${str(r.score_data)},"calculatedData":${str(r.calculated_data)},"rankingData":{"rank":${int(r.rank)},"outOf":${int(r.out_of)}},"composedFrom":${str(r.composed_from)},"timeAchieved":${ms(r.time_achieved)},"highlighted":${str(r.highlighted)}}`;
}

const SCORE_COLUMNS = `score_id, user_id, game, playtype, song_id, chart_id, is_primary, score_data, calculated_data, score_meta, time_achieved, time_added, service, import_type, import_id, comment, highlighted`;

function scoreDoc(r: Row): string {
  const judgements = (r.score_data as { judgements?: unknown }).judgements;
  // toScoreDocument copies scoreData.judgements; JSON leaves the key out when it is undefined.
  const top = judgements === undefined ? '' : `"judgements":${str(judgements)},`;
  return `{"scoreID":${str(r.score_id)},"userID":${int(r.user_id)},"game":${str(r.game)},"playtype":${str(r.playtype)},"songID":${int(r.song_id)},"chartID":${str(r.chart_id)},"isPrimary":${str(r.is_primary)},"scoreData":${str(r.score_data)},${top}"calculatedData":${str(r.calculated_data)},"scoreMeta":${str(r.score_meta)},"timeAchieved":${ms(r.time_achieved)},"timeAdded":${ms(r.time_added)},"service":${str(r.service)},"importType":${str(r.import_type)},"importID":${str(r.import_id)},"comment":${str(r.comment)},"highlighted":${str(r.highlighted)}}`;
}

/** `"songs":[…],"charts":[…]` of scores or PBs: each once, in first-named order, unknown ids skipped (RelatedDocuments.songsAndCharts). */
function songsAndCharts(catalog: GameCatalog | undefined, rows: Row[]): string {
  const songIDs = new Set<number>();
  const chartIDs = new Set<string>();
  for (const r of rows) {
    songIDs.add(r.song_id as number);
    chartIDs.add(r.chart_id as string);
  }
  const songs: string[] = [];
  for (const id of songIDs) {
    const s = catalog?.songs.get(id);
    if (s) songs.push(s);
  }
  const charts: string[] = [];
  for (const id of chartIDs) {
    const c = catalog?.charts.get(id);
    if (c) charts.push(c.json);
  }
  return `"songs":[${songs.join(',')}],"charts":[${charts.join(',')}]`;
}

// ---------------------------------------------------------------------------------------------
// One statement per endpoint. Each returns no row when the app answers 404 (the user has not
// played the GPT, or the chart is not the GPT's).

/** A PB's rank as readers serve it (database/pb-rank.ts rankedPbColumns): stored while its chart is clean, else 1 + the PBs before it. */
const LIVE_RANK = `(CASE WHEN cr.dirty_since IS NULL THEN p.rank ELSE 1 + (
  (SELECT count(*) FROM personal_bests o WHERE o.chart_id = p.chart_id AND o.rank_order > p.rank_order)
  + (SELECT count(*) FROM personal_bests o WHERE o.chart_id = p.chart_id AND o.rank_order = p.rank_order AND o.score > p.score)
  + (SELECT count(*) FROM personal_bests o WHERE o.chart_id = p.chart_id AND o.rank_order = p.rank_order AND o.score = p.score
      AND (o.rank_time < p.rank_time OR (p.rank_time IS NULL AND o.rank_time IS NOT NULL) OR (o.rank_time IS NOT DISTINCT FROM p.rank_time AND o.user_id < p.user_id)))) END)`;

/** $1 user, $2 game, $3 playtype, $4 score rating algorithm. A row of nulls: played, no PBs. */
const BEST_PBS = `SELECT b.* FROM user_game_stats g LEFT JOIN (
    SELECT r.value, ${PB_COLUMNS}, ${LIVE_RANK} AS rank, coalesce(cr.players, 0) AS out_of
    FROM pb_ratings r
    JOIN personal_bests p ON p.user_id = r.user_id AND p.chart_id = r.chart_id
    LEFT JOIN chart_rankings cr ON cr.chart_id = p.chart_id
    WHERE r.user_id = $1 AND r.game = $2 AND r.playtype = $3 AND r.alg = $4 AND r.is_primary = true
    ORDER BY r.value DESC NULLS LAST, r.chart_id LIMIT ${LIST}
  ) b ON true
  WHERE g.user_id = $1 AND g.game = $2 AND g.playtype = $3
  ORDER BY b.value DESC NULLS LAST, b.chart_id`;

/** $1 user, $2 game, $3 playtype: the latest timed scores, then (while there is room) the untimed ones, latest import first. */
const RECENT_SCORES = `WITH timed AS (
    SELECT ${SCORE_COLUMNS} FROM scores WHERE user_id = $1 AND game = $2 AND playtype = $3 AND time_achieved IS NOT NULL
    ORDER BY time_achieved DESC, score_id DESC LIMIT ${LIST}
  ), untimed AS (
    SELECT ${SCORE_COLUMNS} FROM scores WHERE user_id = $1 AND game = $2 AND playtype = $3 AND time_achieved IS NULL
    ORDER BY time_added DESC, score_id DESC LIMIT ${LIST} - (SELECT count(*) FROM timed)
  )
  SELECT x.* FROM user_game_stats g LEFT JOIN (SELECT 1 AS part, * FROM timed UNION ALL SELECT 2, * FROM untimed) x ON true
  WHERE g.user_id = $1 AND g.game = $2 AND g.playtype = $3
  ORDER BY x.part, x.time_achieved DESC, (CASE WHEN x.part = 2 THEN x.time_added END) DESC, x.score_id DESC`;

/**
 * $1 chart, $2 game, $3 playtype: the first page of the chart's PBs (readChartPage from rank 1): by
 * stored rank while the chart is clean, else by the ranking key, numbered from 1.
 */
const CHART_PBS = `WITH c AS (
    SELECT coalesce(cr.players, 0) AS out_of,
      (coalesce(cr.dirty_since IS NOT NULL, false) OR NOT EXISTS (SELECT 1 FROM personal_bests q WHERE q.chart_id = $1 AND q.rank >= 1)) AS by_key
    FROM charts ch LEFT JOIN chart_rankings cr ON cr.chart_id = ch.chart_id
    WHERE ch.chart_id = $1 AND ch.game = $2 AND ch.playtype = $3
  ), page AS (
    (SELECT p.rank AS pos, ${PB_COLUMNS} FROM personal_bests p
      WHERE p.chart_id = $1 AND p.rank >= 1 AND NOT (SELECT by_key FROM c) ORDER BY p.rank LIMIT ${LIST})
    UNION ALL
    (SELECT row_number() OVER (ORDER BY p.rank_order DESC, p.score DESC, p.rank_time ASC NULLS LAST, p.user_id) AS pos, ${PB_COLUMNS} FROM personal_bests p
      WHERE p.chart_id = $1 AND (SELECT by_key FROM c)
      ORDER BY p.rank_order DESC, p.score DESC, p.rank_time ASC NULLS LAST, p.user_id LIMIT ${LIST})
  )
  SELECT c.out_of, page.*, page.pos AS rank, ${USER_COLUMNS}
  FROM c LEFT JOIN page ON true LEFT JOIN users u ON u.id = page.user_id
  ORDER BY page.pos`;

/** $1 game, $2 playtype, $3 profile rating algorithm: rated profiles best first (ties by user id), then the unrated by user id. */
const LEADERBOARD = `WITH rated AS (
    SELECT ${STATS_COLUMNS('g')}, r.value FROM profile_ratings r
    JOIN user_game_stats g ON g.user_id = r.user_id AND g.game = r.game AND g.playtype = r.playtype
    WHERE r.game = $1 AND r.playtype = $2 AND r.alg = $3
    ORDER BY r.value DESC NULLS LAST, r.user_id LIMIT ${LIST}
  ), unrated AS (
    SELECT ${STATS_COLUMNS('g')}, NULL::double precision AS value FROM user_game_stats g
    WHERE g.game = $1 AND g.playtype = $2
      AND NOT EXISTS (SELECT 1 FROM profile_ratings r WHERE r.user_id = g.user_id AND r.game = $1 AND r.playtype = $2 AND r.alg = $3)
    ORDER BY g.user_id LIMIT ${LIST} - (SELECT count(*) FROM rated)
  )
  SELECT x.*, ${USER_COLUMNS}
  FROM (SELECT 0 AS part, * FROM rated UNION ALL SELECT 1, * FROM unrated) x LEFT JOIN users u ON u.id = x.user_id
  ORDER BY x.part, x.value DESC NULLS LAST, x.user_id`;

/**
 * $1 user, $2 game, $3 playtype, $4 profile rating algorithm (ugpt-standing.service.ts): part 0 is
 * the user (with ranking and outOf), 1 the closest 5 strictly better, 2 and 3 up to 5 rated the
 * same or worse and then unrated (the user left out). `mine` is the user's rating (null: unrated).
 */
const ADJACENT_SQL = `WITH me AS (
    SELECT ${STATS_COLUMNS('g')}, (g.ratings ->> $4)::double precision AS mine FROM user_game_stats g
    WHERE g.user_id = $1 AND g.game = $2 AND g.playtype = $3
  ), above AS (
    (SELECT ${STATS_COLUMNS('g')}, r.value FROM profile_ratings r
      JOIN user_game_stats g ON g.user_id = r.user_id AND g.game = r.game AND g.playtype = r.playtype
      WHERE r.game = $2 AND r.playtype = $3 AND r.alg = $4 AND r.value > (SELECT mine FROM me)
      ORDER BY r.value ASC NULLS FIRST, r.user_id DESC LIMIT ${ADJACENT})
    UNION ALL
    (SELECT ${STATS_COLUMNS('g')}, r.value FROM profile_ratings r
      JOIN user_game_stats g ON g.user_id = r.user_id AND g.game = r.game AND g.playtype = r.playtype
      WHERE r.game = $2 AND r.playtype = $3 AND r.alg = $4 AND (SELECT mine FROM me) IS NULL
      ORDER BY r.value ASC NULLS FIRST, r.user_id DESC LIMIT ${ADJACENT})
  ), below_rated AS (
    SELECT ${STATS_COLUMNS('g')}, r.value FROM profile_ratings r
    JOIN user_game_stats g ON g.user_id = r.user_id AND g.game = r.game AND g.playtype = r.playtype
    WHERE r.game = $2 AND r.playtype = $3 AND r.alg = $4 AND r.value <= (SELECT mine FROM me) AND r.user_id <> $1
    ORDER BY r.value DESC NULLS LAST, r.user_id LIMIT ${ADJACENT}
  ), below_unrated AS (
    SELECT ${STATS_COLUMNS('g')}, NULL::double precision AS value FROM user_game_stats g
    WHERE g.game = $2 AND g.playtype = $3 AND g.user_id <> $1
      AND NOT EXISTS (SELECT 1 FROM profile_ratings r WHERE r.user_id = g.user_id AND r.game = $2 AND r.playtype = $3 AND r.alg = $4)
    ORDER BY g.user_id LIMIT ${ADJACENT} - (SELECT count(*) FROM below_rated)
  ), standing AS (
    SELECT 1 + (CASE WHEN (SELECT mine FROM me) IS NULL
        THEN (SELECT count(*) FROM profile_ratings o WHERE o.game = $2 AND o.playtype = $3 AND o.alg = $4)
        ELSE (SELECT count(*) FROM profile_ratings o WHERE o.game = $2 AND o.playtype = $3 AND o.alg = $4 AND o.value > (SELECT mine FROM me)) END) AS ranking,
      (SELECT count(*) FROM user_game_stats s WHERE s.game = $2 AND s.playtype = $3) AS out_of
  )
  SELECT x.*, standing.ranking, standing.out_of, ${USER_COLUMNS}
  FROM (
    SELECT 0 AS part, user_id, game, playtype, ratings, classes, mine AS value FROM me
    UNION ALL SELECT 1, * FROM above
    UNION ALL SELECT 2, * FROM below_rated
    UNION ALL SELECT 3, * FROM below_unrated
  ) x CROSS JOIN standing LEFT JOIN users u ON u.id = x.user_id
  ORDER BY x.part, x.value DESC NULLS LAST, x.user_id`;

/**
 * CatalogRepository.popularCharts with a search: $1 search, $2 game, $3 ILIKE pattern, $4 search,
 * $5 limit, $6 game, $7 playtype, $8 limit. The matched songs' subquery has the app's shape (its
 * order has no tie-break, so which songs tie at the limit is the plan's choice).
 */
const SEARCHED_CHARTS = `SELECT c.chart_id, c.song_id, coalesce(cr.players, 0) AS playcount
  FROM charts c
  INNER JOIN (SELECT songs.id, word_similarity($1, songs.search_text) AS closeness FROM songs
    WHERE (songs.game = $2 AND (songs.search_text ILIKE $3 OR $4 <% songs.search_text)) ORDER BY closeness DESC LIMIT $5) matched ON matched.id = c.song_id
  LEFT JOIN chart_rankings cr ON cr.chart_id = c.chart_id
  WHERE (c.game = $6 AND c.playtype = $7)
  ORDER BY coalesce(cr.players, 0) DESC, matched.closeness DESC, c.song_id, c.chart_id LIMIT $8`;

/** Without a search: $1 game, $2 playtype; the most played charts, then the unplayed ones by song and chart id. */
const POPULAR_CHARTS = `WITH played AS (
    SELECT c.chart_id, c.song_id, cr.players AS playcount FROM chart_rankings cr JOIN charts c ON c.chart_id = cr.chart_id
    WHERE cr.game = $1 AND cr.playtype = $2 AND cr.players > 0
    ORDER BY cr.players DESC, c.song_id, c.chart_id LIMIT ${LIST}
  ), unplayed AS (
    SELECT c.chart_id, c.song_id, 0 AS playcount FROM charts c
    WHERE c.game = $1 AND c.playtype = $2 AND NOT EXISTS (SELECT 1 FROM chart_rankings r WHERE r.chart_id = c.chart_id AND r.players > 0)
    ORDER BY c.song_id, c.chart_id LIMIT ${LIST} - (SELECT count(*) FROM played)
  )
  SELECT x.* FROM (SELECT 0 AS part, * FROM played UNION ALL SELECT 1, * FROM unplayed) x
  ORDER BY x.part, x.playcount DESC, x.song_id, x.chart_id`;

// ---------------------------------------------------------------------------------------------

class HttpError extends Error {
  constructor(readonly status: number) {
    super(String(status));
  }
}

/** The GPT of a route's :game and :playtype (resolveGpt), else 404. */
function gptOf(game: string, playtype: string): GptSupport {
  const support = findGame(game);
  const gpt = support && support.playtypes.includes(playtype) ? support.gpts[playtype] : undefined;
  if (!gpt) throw new HttpError(404);
  return gpt;
}

/** A numeric :userID as the app resolves it (all digits, within PostgreSQL's integer range), else 404. */
function userIdOf(param: string): number {
  if (!/^[0-9]+$/.test(param) || Number(param) > 2147483647) throw new HttpError(404);
  return Number(param);
}

export interface ReferenceServer {
  url: string;
  close: () => Promise<void>;
}

/** Starts the reference server on 127.0.0.1:port (0: any free port) over the database at databaseUrl. */
export async function startReferenceServer(databaseUrl: string, port = 0): Promise<ReferenceServer> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  pool.on('error', () => undefined);
  const catalog = await loadCatalog(pool);
  // Named: each connection parses and plans a statement once. The chart search stays unnamed, as
  // the app's statements are: its matched songs' order has no tie-break (see SEARCHED_CHARTS).
  const names = new Map<string, string>();
  const rows = async (text: string, values: unknown[], prepared = true) => {
    let name = names.get(text);
    if (prepared && !name) names.set(text, (name = `reference_${names.size}`));
    return (await pool.query<Row>(prepared ? { name, text, values } : { text, values })).rows;
  };

  const bestPbs = async (userID: number, gpt: GptSupport) => {
    const found = await rows(BEST_PBS, [userID, gpt.game, gpt.playtype, gpt.defaultScoreRatingAlg]);
    if (found.length === 0) throw new HttpError(404);
    const pbs = found[0].chart_id === null ? [] : found;
    return `{${songsAndCharts(catalog.get(gpt.game), pbs)},"pbs":[${pbs.map(pbDoc).join(',')}]}`;
  };

  const recentScores = async (userID: number, gpt: GptSupport) => {
    const found = await rows(RECENT_SCORES, [userID, gpt.game, gpt.playtype]);
    if (found.length === 0) throw new HttpError(404);
    const scores = found[0].score_id === null ? [] : found;
    return `{${songsAndCharts(catalog.get(gpt.game), scores)},"scores":[${scores.map(scoreDoc).join(',')}]}`;
  };

  const adjacent = async (userID: number, gpt: GptSupport) => {
    const found = await rows(ADJACENT_SQL, [userID, gpt.game, gpt.playtype, gpt.defaultProfileRatingAlg]);
    const me = found[0];
    if (!me || me.part !== 0) throw new HttpError(404);
    const above = found.filter((r) => r.part === 1);
    const below = found.filter((r) => r.part === 2 || r.part === 3);
    return `{"above":[${above.map(statsDoc).join(',')}],"below":[${below.map(statsDoc).join(',')}],"users":${usersOf([...above, ...below, me])},"thisUsersStats":${statsDoc(me)},"thisUsersRanking":{"ranking":${int(me.ranking)},"outOf":${int(me.out_of)}}}`;
  };

  const leaderboard = async (gpt: GptSupport) => {
    const found = await rows(LEADERBOARD, [gpt.game, gpt.playtype, gpt.defaultProfileRatingAlg]);
    return `{"gameStats":[${found.map(statsDoc).join(',')}],"users":${usersOf(found)}}`;
  };

  const chartPbs = async (gpt: GptSupport, chartID: string) => {
    const found = await rows(CHART_PBS, [chartID, gpt.game, gpt.playtype]);
    if (found.length === 0) throw new HttpError(404);
    const pbs = found[0].chart_id === null ? [] : found;
    return `{"pbs":[${pbs.map(pbDoc).join(',')}],"users":${usersOf(pbs)}}`;
  };

  const chartList = async (gpt: GptSupport, rawSearch: string | undefined) => {
    // CatalogService.charts: a blank search is no search.
    const search = rawSearch?.trim() || undefined;
    const found = search
      ? await rows(SEARCHED_CHARTS, [search, gpt.game, containsPattern(search), search, LIST, gpt.game, gpt.playtype, LIST], false)
      : await rows(POPULAR_CHARTS, [gpt.game, gpt.playtype]);
    const games = catalog.get(gpt.game);
    const charts: string[] = [];
    const songIDs = new Set<number>();
    for (const r of found) {
      const chart = games?.charts.get(r.chart_id as string);
      if (!chart) throw new Error(`chart ${String(r.chart_id)} is not in the catalog loaded at boot: restart the reference server`);
      charts.push(`${chart.open},"__playcount":${int(r.playcount)}}`);
      songIDs.add(r.song_id as number);
    }
    // The app reads these songs without an ORDER BY (CatalogRepository.songsByIds): PostgreSQL
    // returns them in its primary key's order (game, id), which this follows.
    const songs = [...songIDs].sort((a, b) => a - b).flatMap((id) => games?.songs.get(id) ?? []);
    return `{"charts":[${charts.join(',')}],"songs":[${songs.join(',')}]}`;
  };

  /** The body for a GET, or an HttpError. */
  const answer = (method: string | undefined, rawUrl: string): Promise<string> => {
    if (method !== 'GET') throw new HttpError(404);
    const q = rawUrl.indexOf('?');
    const path = q < 0 ? rawUrl : rawUrl.slice(0, q);
    const query = new URLSearchParams(q < 0 ? '' : rawUrl.slice(q + 1));
    const parts = path.split('/');
    // '', 'api', 'v1', …
    if (parts[1] !== 'api' || parts[2] !== 'v1') throw new HttpError(404);
    const p = parts.slice(3).map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        throw new HttpError(404);
      }
    });
    const keys = [...query.keys()];
    if (p[0] === 'users' && p.length >= 6 && p[2] === 'games') {
      if (keys.length > 0) throw new HttpError(404);
      const userID = userIdOf(p[1]);
      const gpt = gptOf(p[3], p[4]);
      const rest = p.slice(5).join('/');
      if (rest === 'pbs/best') return bestPbs(userID, gpt);
      if (rest === 'scores/recent') return recentScores(userID, gpt);
      if (rest === 'leaderboard-adjacent') return adjacent(userID, gpt);
    } else if (p[0] === 'games' && p.length >= 4) {
      const gpt = gptOf(p[1], p[2]);
      if (p.length === 4 && p[3] === 'charts' && keys.every((k) => k === 'search')) {
        const searches = query.getAll('search');
        if (searches.length > 1 || (searches[0]?.length ?? 0) > MAX_SEARCH) throw new HttpError(400);
        return chartList(gpt, searches[0]);
      }
      if (keys.length > 0) throw new HttpError(404);
      if (p.length === 4 && p[3] === 'leaderboard') return leaderboard(gpt);
      if (p.length === 6 && p[3] === 'charts' && p[5] === 'pbs') return chartPbs(gpt, p[4]);
    }
    throw new HttpError(404);
  };

  const server = http.createServer((req, res) => {
    let body: Promise<string>;
    try {
      body = answer(req.method, req.url ?? '/');
    } catch (err) {
      body = Promise.reject(err as Error);
    }
    body.then(
      (text) => {
        res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
        res.end(text);
      },
      (err: Error) => {
        const status = err instanceof HttpError ? err.status : 500;
        if (status === 500) console.error(err);
        res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.end(status === 500 ? 'Internal Server Error' : String(status));
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}`;
  return {
    url,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await pool.end();
    },
  };
}

// The process entry point: `node dist-bench/bench/reference-server.js` (not when a test imports this module).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('The reference server needs DATABASE_URL (PostgreSQL).');
  const server = await startReferenceServer(databaseUrl, Number(process.env.PORT ?? 0));
  const stop = () => void server.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  console.log(`READY ${server.url}`);
}
