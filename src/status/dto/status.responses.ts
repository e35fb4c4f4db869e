import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class StatusResponse {
  @ApiProperty({ type: 'integer', description: 'Unix ms.' }) serverTime!: number;
  @ApiProperty({ type: 'integer', description: 'Unix ms when this server process started.' }) startTime!: number;
  @ApiProperty() version!: string;
  @ApiProperty({ type: 'integer', nullable: true, description: 'The requesting user id; null for a guest.' }) whoami!: number | null;
  @ApiProperty({ type: [String], description: 'Permissions of this request.' }) permissions!: string[];
  @ApiPropertyOptional({ description: 'The echo parameter, as given.' }) echo?: string;
}

export class ReadinessResponse {
  @ApiProperty({ example: 'ok' }) database!: string;
  @ApiProperty({ description: '`ok`, or `not configured` without REDIS_URL.', example: 'ok' }) redis!: string;
}
