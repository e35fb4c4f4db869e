import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ChartDocument, SongDocument } from '../../presenters/catalog.presenter.js';
import { PbDocument } from '../../presenters/pb.presenter.js';

export { EamusementCsvDocument } from '../../presenters/game-specific.presenter.js';

export class JubilityResponse {
  @ApiProperty({ type: [SongDocument] }) songs!: SongDocument[];
  @ApiProperty({ type: [ChartDocument] }) charts!: ChartDocument[];
  @ApiProperty({ type: [PbDocument], description: 'The PBs on PICK UP songs counted, best first (up to 30).' }) pickUp!: PbDocument[];
  @ApiProperty({ type: [PbDocument], description: 'The PBs on the other songs counted, best first (up to 30).' }) other!: PbDocument[];
}

/** A playlist set (Tachi's list of IIDX playlists). */
export class PlaylistSetDocument {
  @ApiProperty({ description: 'Its name in the URL (…/playlists/:urlName).' }) urlName!: string;
  @ApiProperty() playlistName!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ type: String, nullable: true, description: 'The playtype it is for; null: both.' }) playtype!: string | null;
  @ApiProperty({ description: 'Always false: every set here is the same for every user.' }) forSpecificUser!: boolean;
}

class PlaylistEntryDocument {
  @ApiProperty({ type: 'integer', description: "The chart's in-game id." }) entry_id!: number;
  @ApiProperty({ description: 'The difficulty, lower case.' }) difficulty!: string;
  @ApiPropertyOptional({ enum: ['event'], description: 'event: a chart whose tier has individual difference.' }) bar_style?: string;
}

export class IidxPlaylistDocument {
  @ApiProperty() name!: string;
  @ApiProperty({ enum: ['SP', 'DP'] }) play_style!: string;
  @ApiProperty({ type: [PlaylistEntryDocument] }) charts!: PlaylistEntryDocument[];
}

/** A custom BMS difficulty table this server emits (Tachi's list). */
export class CustomBmsTableDocument {
  @ApiProperty({ description: 'Its name in the URL (…/custom-tables/:urlName, with header.json and body.json).' }) urlName!: string;
  @ApiProperty() tableName!: string;
  @ApiProperty() symbol!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ description: 'Always false: every table here is the same for every user.' }) forSpecificUser!: boolean;
}

export class SongsAndChartsResponse {
  @ApiProperty({ type: [SongDocument] }) songs!: SongDocument[];
  @ApiProperty({ type: [ChartDocument] }) charts!: ChartDocument[];
}

/** A player's best score (their PB) on one BMS chart, found by its MD5 or SHA-256. */
export class BmsBestScoreResponse {
  @ApiProperty({ type: PbDocument }) pb!: PbDocument;
  @ApiProperty({ type: ChartDocument }) chart!: ChartDocument;
  @ApiProperty({ type: SongDocument }) song!: SongDocument;
}
