import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';

export class ImportFileDto {
  @ApiProperty({ example: 'file/batch-manual', description: 'Only file/ import types. Supported: file/batch-manual.' })
  @IsString()
  @MaxLength(100)
  importType!: string;
}
