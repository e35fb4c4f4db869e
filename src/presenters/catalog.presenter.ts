import { ApiProperty } from '@nestjs/swagger';
import type { ChartRow, FolderRow, SongRow, TableRow } from '../database/schema.js';
import { ApiMapProperty } from './api-schema.js';
import { definePresenter } from './profile.js';

/** Spec SongDocument (plus the seed fields clients show). */
export class SongDocument {
  @ApiProperty({ type: 'integer' }) id!: number;
  @ApiProperty() title!: string;
  @ApiProperty() artist!: string;
  @ApiProperty({ type: [String] }) altTitles!: string[];
  @ApiProperty({ type: [String] }) searchTerms!: string[];
  @ApiMapProperty(true, 'Game-specific song data.') data!: Record<string, unknown>;
}

export function toSongDocument(s: Pick<SongRow, 'id' | 'title' | 'artist' | 'altTitles' | 'searchTerms' | 'data'>): SongDocument {
  return { id: s.id, title: s.title, artist: s.artist, altTitles: s.altTitles, searchTerms: s.searchTerms, data: s.data };
}

/** Spec ChartDocument (plus the seed fields clients show). */
export class ChartDocument {
  @ApiProperty() chartID!: string;
  @ApiProperty({ type: 'integer' }) songID!: number;
  @ApiProperty() playtype!: string;
  @ApiProperty() difficulty!: string;
  @ApiProperty() level!: string;
  @ApiProperty() levelNum!: number;
  @ApiProperty({ description: 'Whether the chart counts towards profile ratings.' }) isPrimary!: boolean;
  @ApiProperty({ type: [String] }) versions!: string[];
  @ApiMapProperty(true, 'Game-specific chart data.') data!: Record<string, unknown>;
}

export function toChartDocument(
  c: Pick<ChartRow, 'chartID' | 'songID' | 'playtype' | 'difficulty' | 'level' | 'levelNum' | 'isPrimary' | 'versions' | 'data'>,
): ChartDocument {
  return {
    chartID: c.chartID,
    songID: c.songID,
    playtype: c.playtype,
    difficulty: c.difficulty,
    level: c.level,
    levelNum: c.levelNum,
    isPrimary: c.isPrimary,
    versions: c.versions,
    data: c.data,
  };
}

export class FolderDocument {
  @ApiProperty() folderID!: string;
  @ApiProperty({ description: 'The title (spec name).' }) name!: string;
  @ApiProperty() title!: string;
  @ApiProperty() game!: string;
  @ApiProperty() playtype!: string;
  @ApiProperty({ enum: ['charts', 'songs', 'static'] }) type!: FolderRow['type'];
  @ApiProperty({
    oneOf: [
      { type: 'object', additionalProperties: true },
      { type: 'array', items: { type: 'string' } },
    ],
    description: "The folder's filter: a chart or song query, or (type static) a list of chart ids.",
  })
  data!: unknown;
  @ApiProperty() inactive!: boolean;
  @ApiProperty({ type: [String] }) searchTerms!: string[];
}

/** Tachi's FolderDocument: `title` only (the spec's `name` is the same title). */
export class TachiFolderDocument {
  @ApiProperty() folderID!: string;
  @ApiProperty() title!: string;
  @ApiProperty() game!: string;
  @ApiProperty() playtype!: string;
  @ApiProperty({ enum: ['charts', 'songs', 'static'] }) type!: FolderRow['type'];
  @ApiProperty({
    oneOf: [
      { type: 'object', additionalProperties: true },
      { type: 'array', items: { type: 'string' } },
    ],
    description: "The folder's filter: a chart or song query, or (type static) a list of chart ids.",
  })
  data!: unknown;
  @ApiProperty() inactive!: boolean;
  @ApiProperty({ type: [String] }) searchTerms!: string[];
}

export const toFolderDocument = definePresenter('folder', {
  spec: (f: FolderRow): FolderDocument => ({
    folderID: f.folderID,
    name: f.title,
    title: f.title,
    game: f.game,
    playtype: f.playtype,
    type: f.type,
    data: f.data,
    inactive: f.inactive,
    searchTerms: f.searchTerms,
  }),
  tachi: (_f, { name: _name, ...rest }): TachiFolderDocument => rest,
  schemas: { spec: FolderDocument, tachi: TachiFolderDocument },
});

export class TableDocument {
  @ApiProperty() tableID!: string;
  @ApiProperty({ description: 'The title (spec name).' }) name!: string;
  @ApiProperty() title!: string;
  @ApiProperty() game!: string;
  @ApiProperty() playtype!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ type: [String], description: 'Folder ids, in table order.' }) folders!: string[];
  @ApiProperty() inactive!: boolean;
  @ApiProperty({ description: "Whether this is the GPT's default table." }) default!: boolean;
}

/** Tachi's TableDocument: `title` only (the spec's `name` is the same title). */
export class TachiTableDocument {
  @ApiProperty() tableID!: string;
  @ApiProperty() title!: string;
  @ApiProperty() game!: string;
  @ApiProperty() playtype!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ type: [String], description: 'Folder ids, in table order.' }) folders!: string[];
  @ApiProperty() inactive!: boolean;
  @ApiProperty({ description: "Whether this is the GPT's default table." }) default!: boolean;
}

export const toTableDocument = definePresenter('table', {
  spec: (t: TableRow): TableDocument => ({
    tableID: t.tableID,
    name: t.title,
    title: t.title,
    game: t.game,
    playtype: t.playtype,
    description: t.description,
    folders: t.folders,
    inactive: t.inactive,
    default: t.isDefault,
  }),
  tachi: (_t, { name: _name, ...rest }): TachiTableDocument => rest,
  schemas: { spec: TableDocument, tachi: TachiTableDocument },
});

/** GET /games/:game/:playtype/tables. spec: `{tables}`; tachi: the bare array Tachi answers (its web client reads an array). */
export class TableListResponse {
  @ApiProperty({ type: [TableDocument] }) tables!: TableDocument[];
}

export const toTableList = definePresenter('tableList', {
  spec: (tables: readonly TableRow[]): TableListResponse => ({ tables: tables.map(toTableDocument) }),
  tachi: (_tables, spec): TableDocument[] => spec.tables,
  schemas: { spec: TableListResponse, tachi: [TachiTableDocument] },
});
