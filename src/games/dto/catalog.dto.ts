import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Length, MaxLength } from 'class-validator';
import { OptionalNotNull } from '../../common/validation/validators.js';

export class ChartSearchQuery {
  @ApiPropertyOptional({ description: 'Song title, alternate title or search term. Empty: the most popular charts, as without it.' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(200)
  search?: string;
}

export class FolderSearchQuery {
  @ApiProperty({ description: 'Folder name.' })
  @IsString()
  @Length(1, 200)
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
