import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import { OptionalNotNull } from '../../common/validation/validators.js';
import { AlgName, SearchText } from '../../http/query-params.js';

export class SongSearchQuery {
  @SearchText('Song title, alternate title or search term.')
  search!: string;
}

export class BestPbsQuery {
  @AlgName("A score rating algorithm of the GPT; default the GPT's default score algorithm.")
  alg?: string;
}

export class PbQuery {
  @ApiPropertyOptional({ description: 'Presence parameter: also return the scores the PB is composed from.' })
  @OptionalNotNull()
  @IsString()
  getComposition?: string;
}
