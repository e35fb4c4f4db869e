import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class StatusResponse {
  @ApiProperty({ type: 'integer', description: 'Unix ms.' }) serverTime!: number;
  @ApiProperty({ type: 'integer', description: 'Unix ms when this server process started.' }) startTime!: number;
  @ApiProperty() version!: string;
  @ApiProperty({ type: 'integer', nullable: true, description: 'The requesting user id; null for a guest.' }) whoami!: number | null;
  @ApiProperty({ type: [String], description: 'Permissions of this request.' }) permissions!: string[];
  @ApiPropertyOptional({ description: 'The echo parameter, as given.' }) echo?: string;
}

export class ReplicaReadiness {
  @ApiProperty({ description: 'The replica (password hidden).' }) url!: string;
  @ApiProperty({
    enum: ['ok', 'lagging', 'down', 'not a standby', 'unchecked'],
    description: '`ok`: reads go to it; the others: skipped (the primary answers) and checked again every 200 ms.',
  })
  state!: string;
  @ApiPropertyOptional({ type: 'integer', description: 'How far behind the primary it was at the last check (ms).' }) lagMs?: number;
  @ApiPropertyOptional({ description: 'pg_last_wal_replay_lsn() at the last check.' }) replayLsn?: string;
  @ApiPropertyOptional({ description: 'Why it is skipped.' }) error?: string;
  @ApiProperty({ type: 'integer', description: 'Reads this process sent it.' }) reads!: number;
}

export class ReadinessResponse {
  @ApiProperty({ example: 'ok' }) database!: string;
  @ApiProperty({ description: '`ok`, or `not configured` without REDIS_URL.', example: 'ok' }) redis!: string;
  @ApiPropertyOptional({
    type: [ReplicaReadiness],
    description: 'With DATABASE_REPLICA_URLS: each replica. One that is down or lagging does not make the process unready: the primary answers its reads.',
  })
  replicas?: ReplicaReadiness[];
}
