import { describe, expect, it } from '@jest/globals';
import type { ChartRow, FolderRow, SongRow, UserRow } from '../../../src/database/schema.js';
import { presentAs } from '../../../src/presenters/profile.js';
import { toChartHashSearchDocument, toSiteSearchDocument } from '../../../src/presenters/search.presenter.js';

const song = (game: string, id: number, title: string) =>
  ({ game, id, title, artist: 'A', altTitles: [], searchTerms: [], data: {}, searchText: title, matchTitles: [title.toLowerCase()] }) as unknown as SongRow;
const chart = (game: string, playtype: string, songID: number, chartID: string) =>
  ({ game, playtype, songID, chartID, difficulty: 'X', level: '1', levelNum: 1, isPrimary: true, versions: [], data: {} }) as unknown as ChartRow;
const USER = {
  id: 7,
  username: 'Alice',
  usernameLowercase: 'alice',
  socialMedia: {},
  joinDate: 1,
  lastSeen: 2,
  about: '',
  status: null,
  customPfpLocation: null,
  customBannerLocation: null,
  clan: null,
  badges: [],
  authLevel: 1,
} as unknown as UserRow;
const FOLDER = {
  folderID: 'F1',
  title: 'Level 1',
  game: 'sdvx',
  playtype: 'Single',
  type: 'charts',
  data: {},
  inactive: false,
  searchTerms: [],
} as unknown as FolderRow;

const SDVX_SONG = song('sdvx', 1, 'Alpha');
const hits = [
  { song: SDVX_SONG, chart: chart('sdvx', 'Single', 1, 'c-mxm'), playcount: 3 },
  { song: SDVX_SONG, chart: chart('sdvx', 'Single', 1, 'c-exh'), playcount: 1 },
  { song: song('iidx', 1, 'Alpha'), chart: chart('iidx', 'DP', 1, 'c-dp'), playcount: 0 },
];

describe('the site search answer', () => {
  const source = { users: [{ user: USER, isRival: false }], gpts: ['sdvx:Single', 'iidx:SP', 'iidx:DP'], hits, folders: [FOLDER] };

  it('spec: plain lists; each song once (per game), songs and charts naming their game, charts with __playcount', () => {
    const doc = presentAs('spec', toSiteSearchDocument(source)) as Record<string, Record<string, unknown>[]>;
    expect(doc.users).toEqual([expect.objectContaining({ id: 7, clan: null, __isRival: false })]);
    expect(doc.songs.map((s) => [s.game, s.id])).toEqual([
      ['sdvx', 1],
      ['iidx', 1],
    ]);
    expect(doc.charts.map((c) => [c.game, c.chartID, c.__playcount])).toEqual([
      ['sdvx', 'c-mxm', 3],
      ['sdvx', 'c-exh', 1],
      ['iidx', 'c-dp', 0],
    ]);
    expect(doc.folders).toEqual([expect.objectContaining({ folderID: 'F1', name: 'Level 1', title: 'Level 1' })]);
  });

  it('tachi: charts grouped by GPT as {song, chart, playcount}, every GPT searched named; Tachi’s users and folders', () => {
    const doc = presentAs('tachi', toSiteSearchDocument(source)) as Record<string, unknown>;
    expect(Object.keys(doc).sort()).toEqual(['charts', 'folders', 'users']);
    const byGpt = doc.charts as Record<string, { song: { id: number }; chart: { chartID: string }; playcount: number }[]>;
    expect(Object.keys(byGpt)).toEqual(['sdvx:Single', 'iidx:SP', 'iidx:DP']);
    expect(byGpt['sdvx:Single'].map((h) => [h.song.id, h.chart.chartID, h.playcount])).toEqual([
      [1, 'c-mxm', 3],
      [1, 'c-exh', 1],
    ]);
    expect(byGpt['iidx:SP']).toEqual([]);
    expect(byGpt['iidx:DP'].map((h) => h.chart.chartID)).toEqual(['c-dp']);
    const [user] = doc.users as Record<string, unknown>[];
    expect(user).toMatchObject({ id: 7, __isRival: false });
    expect('clan' in user).toBe(false);
    const [folder] = doc.folders as Record<string, unknown>[];
    expect('name' in folder).toBe(false);
  });
});

describe('the chart-hash answer', () => {
  it('spec {songs, charts} with a null __playcount; tachi {charts: {gpt: [{song, chart, playcount: null}]}}', () => {
    const source = { gpts: ['bms:7K', 'bms:14K'], hits: [{ song: song('bms', 4, 'B'), chart: chart('bms', '7K', 4, 'h7'), playcount: null }] };
    expect(presentAs('spec', toChartHashSearchDocument(source))).toEqual({
      songs: [expect.objectContaining({ id: 4, game: 'bms' })],
      charts: [expect.objectContaining({ chartID: 'h7', game: 'bms', __playcount: null })],
    });
    expect(presentAs('tachi', toChartHashSearchDocument(source))).toEqual({
      charts: { 'bms:7K': [{ song: expect.objectContaining({ id: 4 }), chart: expect.objectContaining({ chartID: 'h7' }), playcount: null }], 'bms:14K': [] },
    });
  });
});
