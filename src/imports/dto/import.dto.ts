import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { FILE_IMPORT_TYPES } from '../import-types/registry.js';

/**
 * The multipart form of `POST /import/file` (for the OpenAPI document). Only importType is common;
 * each import type reads and checks the other fields it takes.
 */
export class ImportFileForm {
  @ApiProperty({ enum: FILE_IMPORT_TYPES, example: 'file/batch-manual', description: 'A registered file/ import type.' })
  importType!: string;

  @ApiProperty({ type: 'string', format: 'binary', description: 'The score data file.' })
  scoreData!: unknown;

  @ApiPropertyOptional({ description: 'IIDX CSV types: SP or DP, the playtype the file holds.' })
  playtype?: string;

  @ApiPropertyOptional({
    description: 'IIDX CSV types: any non-empty value (true) skips the safety check that refuses a file whose name names the other playtype.',
  })
  assertPlaytypeCorrect?: string;
}
