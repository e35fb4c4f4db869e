import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayUnique, IsArray, IsBoolean, Matches } from 'class-validator';
import { NullableOptional, OptionalNotNull } from '../../common/validation/validators.js';

/** A card as Fervidex names it in X-Account-Id: 1 to 64 characters, no spaces. */
export const CARD_PATTERN = /^\S{1,64}$/;
export const MAX_FERVIDEX_CARDS = 6;

export class PatchFervidexSettingsDto {
  @ApiPropertyOptional({
    type: [String],
    nullable: true,
    maxItems: MAX_FERVIDEX_CARDS,
    description: `At most ${MAX_FERVIDEX_CARDS} cards (X-Account-Id values, 1 to 64 characters without spaces); Fervidex's plays from other cards are refused. null or [] accepts every card.`,
  })
  @NullableOptional()
  @IsArray()
  @ArrayMaxSize(MAX_FERVIDEX_CARDS)
  @ArrayUnique()
  @Matches(CARD_PATTERN, { each: true, message: 'each card must be 1 to 64 characters without spaces' })
  cards?: string[] | null;

  @ApiPropertyOptional({ description: 'true: the next arcade profile dump imports its scores (once; it is then reset to false). INFINITAS dumps always do.' })
  @OptionalNotNull()
  @IsBoolean()
  forceStaticImport?: boolean;
}

/** A user's Fervidex settings (Tachi's `fer-settings`). */
export class FervidexSettingsDocument {
  @ApiProperty({ type: [String], nullable: true, description: 'The cards whose plays are accepted; null: every card.' }) cards!: string[] | null;
  @ApiProperty({ description: 'Whether the next arcade profile dump imports its scores.' }) forceStaticImport!: boolean;
}

export class PatchKshookSv6cSettingsDto {
  @ApiPropertyOptional({ description: 'true: the next kshook profile export imports its scores.' })
  @OptionalNotNull()
  @IsBoolean()
  forceStaticImport?: boolean;
}

/** A user's kshook settings (Tachi's `kshook-sv6c-settings`). */
export class KshookSv6cSettingsDocument {
  @ApiProperty({ description: 'Whether the next kshook profile export imports its scores.' }) forceStaticImport!: boolean;
}
