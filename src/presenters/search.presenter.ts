import { ApiProperty, getSchemaPath } from '@nestjs/swagger';
import type { ChartRow, FolderRow, SongRow, UserRow } from '../database/schema.js';
import { ChartDocument, FolderDocument, SongDocument, toChartDocument, toFolderDocument, toSongDocument } from './catalog.presenter.js';
import { definePresenter, tachiOf } from './profile.js';
import { TachiUserDocument, toUserDocument, UserDocument } from './user.presenter.js';

/** A chart a search found: its song, the chart, and how many players have a PB on it (null where the search does not count them). */
export interface SearchHit {
  song: SongRow;
  chart: ChartRow;
  playcount: number | null;
}

/** What a site-wide search found. */
export interface SiteSearchSource {
  users: { user: UserRow; isRival: boolean }[];
  /** Every GPT searched, as `game:playtype`: Tachi's answer names each, with or without hits. */
  gpts: readonly string[];
  hits: readonly SearchHit[];
  folders: readonly FolderRow[];
}

export class SearchUserDocument extends UserDocument {
  @ApiProperty({ description: 'Whether the requester has this user as a rival on any game and playtype (false for guests).' }) __isRival!: boolean;
}

export class TachiSearchUserDocument extends TachiUserDocument {
  @ApiProperty({ description: 'Whether the requester has this user as a rival.' }) __isRival!: boolean;
}

export class SearchSongDocument extends SongDocument {
  @ApiProperty() game!: string;
}

export class SearchChartDocument extends ChartDocument {
  @ApiProperty() game!: string;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Players with a PB on the chart (null from a hash search).' }) __playcount!: number | null;
}

/** Tachi's search hit: {song, chart, playcount}. */
export class TachiSearchHit {
  @ApiProperty({ type: SongDocument }) song!: SongDocument;
  @ApiProperty({ type: ChartDocument }) chart!: ChartDocument;
  @ApiProperty({ type: 'integer', nullable: true }) playcount!: number | null;
}

const HITS_BY_GPT = {
  type: 'object',
  additionalProperties: { type: 'array', items: { $ref: getSchemaPath(TachiSearchHit) } },
  description: 'game:playtype → the charts found in that GPT, with their songs.',
} as const;

/** The spec's search answer: plain lists, songs and charts each naming their game. */
export class SiteSearchDocument {
  @ApiProperty({ type: [SearchUserDocument], description: 'Up to 25 users whose username contains the text.' }) users!: SearchUserDocument[];
  @ApiProperty({ type: [SearchSongDocument] }) songs!: SearchSongDocument[];
  @ApiProperty({ type: [SearchChartDocument] }) charts!: SearchChartDocument[];
  @ApiProperty({ type: [FolderDocument] }) folders!: FolderDocument[];
}

/** Tachi's search answer (HEAD): charts grouped by GPT, as its web client reads them. */
export class TachiSiteSearchDocument {
  @ApiProperty({ type: [TachiSearchUserDocument] }) users!: TachiSearchUserDocument[];
  @ApiProperty(HITS_BY_GPT) charts!: Record<string, TachiSearchHit[]>;
  @ApiProperty({ type: [FolderDocument] }) folders!: FolderDocument[];
}

/** The spec's chart-hash answer. */
export class ChartHashSearchDocument {
  @ApiProperty({ type: [SearchSongDocument] }) songs!: SearchSongDocument[];
  @ApiProperty({ type: [SearchChartDocument] }) charts!: SearchChartDocument[];
}

/** Tachi's chart-hash answer (HEAD). */
export class TachiChartHashSearchDocument {
  @ApiProperty(HITS_BY_GPT) charts!: Record<string, TachiSearchHit[]>;
}

function songsOf(hits: readonly SearchHit[]): SearchSongDocument[] {
  const seen = new Set<string>();
  return hits.flatMap(({ song }) => {
    const key = `${song.game}:${song.id}`;
    if (seen.has(key)) return [];
    seen.add(key);
    return [{ ...toSongDocument(song), game: song.game }];
  });
}

const chartsOf = (hits: readonly SearchHit[]): SearchChartDocument[] =>
  hits.map((h) => ({ ...toChartDocument(h.chart), game: h.chart.game, __playcount: h.playcount }));

/** Tachi's {gpt: [{song, chart, playcount}]}, with every GPT searched named. */
function hitsByGpt(gpts: readonly string[], hits: readonly SearchHit[]): Record<string, TachiSearchHit[]> {
  const byGpt: Record<string, TachiSearchHit[]> = Object.fromEntries(gpts.map((g) => [g, []]));
  for (const h of hits)
    (byGpt[`${h.chart.game}:${h.chart.playtype}`] ??= []).push({ song: toSongDocument(h.song), chart: toChartDocument(h.chart), playcount: h.playcount });
  return byGpt;
}

export const toSiteSearchDocument = definePresenter('siteSearch', {
  spec: (s: SiteSearchSource): SiteSearchDocument => ({
    users: s.users.map(({ user, isRival }) => ({ ...toUserDocument(user), __isRival: isRival })),
    songs: songsOf(s.hits),
    charts: chartsOf(s.hits),
    folders: s.folders.map(toFolderDocument),
  }),
  tachi: (s): TachiSiteSearchDocument => ({
    users: s.users.map(({ user, isRival }) => ({ ...tachiOf<TachiUserDocument>(toUserDocument(user)), __isRival: isRival })),
    charts: hitsByGpt(s.gpts, s.hits),
    folders: s.folders.map(toFolderDocument),
  }),
  schemas: { spec: SiteSearchDocument, tachi: TachiSiteSearchDocument },
});

export const toChartHashSearchDocument = definePresenter('chartHashSearch', {
  spec: (s: { gpts: readonly string[]; hits: readonly SearchHit[] }): ChartHashSearchDocument => ({ songs: songsOf(s.hits), charts: chartsOf(s.hits) }),
  tachi: (s): TachiChartHashSearchDocument => ({ charts: hitsByGpt(s.gpts, s.hits) }),
  schemas: { spec: ChartHashSearchDocument, tachi: TachiChartHashSearchDocument },
});
