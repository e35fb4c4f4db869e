import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsString, Length, Matches, Max, Min } from 'class-validator';
import { OptionalNotNull } from '../common/validation/validators.js';

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

/**
 * A required search text that may be empty: trimmed like `SearchText`, up to 200 characters, and
 * an empty (or blank) one matches nothing. For pages that ask before anything is typed (Tachi's
 * folder search page opens with `search=`, and Tachi answers it with no folders).
 */
export function SearchTextOrEmpty(description: string) {
  return applyDecorators(
    ApiProperty({ description: `${description} Surrounding spaces are ignored; an empty one matches nothing.` }),
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value)),
    IsString(),
    Length(0, 200),
  );
}

export const INT32_MAX = 2147483647;

/**
 * An optional integer query parameter in [min, max]. Only plain digits convert: a sign, an
 * exponent, a fraction, spaces or hex stay strings and fail, so every bad value is a 400.
 */
export function QueryInt(min: number, max: number, description: string, defaultValue?: number) {
  const message = `$property must be an integer from ${min} to ${max}`;
  return applyDecorators(
    ApiPropertyOptional({ type: 'integer', minimum: min, maximum: max, default: defaultValue, description }),
    OptionalNotNull(),
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' && /^[0-9]{1,10}$/.test(value) ? Number(value) : value)),
    IsInt({ message }),
    Min(min, { message }),
    Max(max, { message }),
  );
}

export function AlgName(description: string) {
  return applyDecorators(ApiPropertyOptional({ description }), OptionalNotNull(), IsString());
}
