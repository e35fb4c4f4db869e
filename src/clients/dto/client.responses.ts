import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PERMISSIONS, type Permission } from '../../common/permissions.js';

/** Spec OAuth2ClientDoc. */
export class ClientDocument {
  @ApiProperty() clientID!: string;
  @ApiPropertyOptional({ description: "Only in its owner's list and in the answers to create and reset-secret." }) clientSecret?: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: 'integer', description: 'Owner user id.' }) author!: number;
  @ApiProperty({ enum: PERMISSIONS, isArray: true }) requestedPermissions!: Permission[];
  @ApiProperty({ type: String, nullable: true }) redirectUri!: string | null;
  @ApiProperty({ type: String, nullable: true }) webhookUri!: string | null;
  @ApiProperty({ type: String, nullable: true }) apiKeyFormat!: string | null;
  @ApiProperty({ type: String, nullable: true }) apiKeyFilename!: string | null;
}

/** The list names requestedPermissions also `requestPermissions`, as the spec's list does. */
export class ListedClientDocument extends ClientDocument {
  @ApiProperty({ enum: PERMISSIONS, isArray: true }) requestPermissions!: Permission[];
}
