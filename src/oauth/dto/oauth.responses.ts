import { ApiProperty } from '@nestjs/swagger';

/** The spec's intermediate code; valid for 30 minutes. */
export class OAuthCodeResponse {
  @ApiProperty() code!: string;
  @ApiProperty({ type: 'integer' }) userID!: number;
  @ApiProperty({ type: 'integer', description: 'Unix ms.' }) createdOn!: number;
}
