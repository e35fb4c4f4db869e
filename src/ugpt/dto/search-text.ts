import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsString, Length, Matches } from 'class-validator';

/**
 * A required search text query parameter: trimmed before it is validated and used, so every
 * search (PBs, scores, sessions, chart PBs by username) ignores surrounding spaces alike; then 1
 * to 200 characters, and not blank.
 */
export function SearchText(description: string) {
  return applyDecorators(
    ApiProperty({ description: `${description} Surrounding spaces are ignored.` }),
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value)),
    IsString(),
    Length(1, 200),
    Matches(/\S/, { message: 'search must not be blank' }),
  );
}
