import { ApiProperty } from '@nestjs/swagger';

export class LoginResponse {
  @ApiProperty({ type: 'integer' }) userID!: number;
}
