import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Length, Matches } from 'class-validator';

export class OAuth2CallbackDto {
  @ApiProperty({ description: "The authorization code the service's OAuth2 page sent back to the redirect URI." })
  @IsString()
  @Length(1, 2048)
  code!: string;
}

export class CgCardDto {
  @ApiProperty({ description: 'The card id: 16 letters and digits.', example: '0123456789ABCDEF' })
  @IsString()
  @Matches(/^[A-Za-z0-9]{16}$/, { message: 'cardID must be 16 letters and digits' })
  cardID!: string;

  @ApiProperty({ description: "The card's PIN: 4 digits. Stored encrypted, never shown again." })
  @IsString()
  @Matches(/^\d{4}$/, { message: 'pin must be 4 digits' })
  pin!: string;
}

export class MytCardDto {
  @ApiProperty({ description: "The card's access code: 20 digits. Stored encrypted, never shown again." })
  @IsString()
  @Matches(/^\d{20}$/, { message: 'cardAccessCode must be 20 digits' })
  cardAccessCode!: string;
}

export class FromApiImportDto {
  @ApiProperty({ description: 'An enabled api/ import type (GET /config under API_PROFILE=tachi lists them).', example: 'api/flo-iidx' })
  @IsString()
  importType!: string;
}

/** A player's link to a service: whether it is linked, and what is not secret about it. */
export class IntegrationLinkDocument {
  @ApiProperty({ example: 'flo' }) service!: string;
  @ApiProperty({ description: 'Whether the player has linked the service.' }) authStatus!: boolean;
  @ApiProperty({ type: 'integer', nullable: true, description: 'When it was linked (Unix ms).' }) linkedAt!: number | null;
  @ApiPropertyOptional({ description: 'CG: the linked card (its PIN is never shown).' }) cardID?: string;
}
