import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import { OptionalNotNull } from '../../common/validation/validators.js';
import { SearchText } from '../../http/query-params.js';

export class SiteSearchQuery {
  @SearchText('A username, song title (or alternate title, search term) or folder name.')
  search!: string;

  @ApiPropertyOptional({
    description: 'Presence parameter: for a signed-in requester, only songs, charts and folders of the GPTs they have played (guests: ignored, as Tachi).',
  })
  @OptionalNotNull()
  @IsString()
  hasPlayedGame?: string;
}

export class ChartHashQuery {
  @SearchText('A chart hash: BMS/PMS MD5 or SHA256, USC SHA1 (any hash a chart-hash match type reads), in any case.')
  search!: string;
}
