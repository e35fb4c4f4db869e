import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Length, MaxLength } from 'class-validator';
import { OptionalNotNull } from '../../common/validation/validators.js';

export class ChartSearchQuery {
  @ApiPropertyOptional({ description: 'Song title, alternate title or search term. Empty: the most popular charts, as without it.' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(200)
  search?: string;

  @ApiPropertyOptional({ description: "Presence parameter: only the charts of songs the requester has a PB on (a guest's request is a 401)." })
  @OptionalNotNull()
  @IsString()
  requesterHasPlayed?: string;

  @ApiPropertyOptional({ description: "Presence parameter, accepted for Tachi's clients: no chart is left out of the list on this server." })
  @OptionalNotNull()
  @IsString()
  noIntelligentOmit?: string;
}

export class FolderSearchQuery {
  @ApiProperty({ description: 'Folder name. Empty: every folder (by title), as a picker opened before anything is typed asks.' })
  @IsString()
  @MaxLength(200)
  search!: string;

  @ApiPropertyOptional({ description: 'Presence parameter: include folders superseded by newer versions.' })
  @OptionalNotNull()
  @IsString()
  inactive?: string;
}

export class TableListQuery {
  @ApiPropertyOptional({ description: 'Presence parameter: include inactive tables.' })
  @OptionalNotNull()
  @IsString()
  showInactive?: string;
}

export class FolderListQuery {
  @ApiPropertyOptional({ description: 'Presence parameter: include folders superseded by newer versions.' })
  @OptionalNotNull()
  @IsString()
  inactive?: string;
}

/** How a batch-manual score names its chart (charts/resolve). */
export class ChartResolveQuery {
  @ApiProperty({ description: "The score element's identifier: a title, a song id, an in-game id or a hash, as matchType says." })
  @IsString()
  @Length(1, 500)
  identifier!: string;

  @ApiProperty({ description: "A batch-manual matchType among the GPT's supportedMatchTypes." })
  @IsString()
  @Length(1, 100)
  matchType!: string;

  @ApiPropertyOptional({ description: 'The difficulty: needed by every match type but a chart hash.' })
  @OptionalNotNull()
  @IsString()
  @Length(1, 100)
  difficulty?: string;

  @ApiPropertyOptional({ description: 'Tells apart songs that share a title (songTitle), as the score element’s artist.' })
  @OptionalNotNull()
  @IsString()
  @Length(1, 500)
  artist?: string;
}
