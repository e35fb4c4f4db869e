import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiConsumes, ApiTags } from '@nestjs/swagger';
import { CurrentUser, SessionOnly } from '../http/auth/access.decorators.js';
import type { UserRow } from '../http/auth/auth-context.js';
import { RateLimit } from '../http/rate-limit/rate-limit.decorator.js';
import { CreateCodeDto, TokenRequestDto } from './dto/oauth.dto.js';
import { OAuthService } from './oauth.service.js';

@ApiTags('oauth')
@Controller()
export class OAuthController {
  constructor(private readonly oauth: OAuthService) {}

  /** Called by the confirmation screen once the user approves. Served at the spec's alias /create-code too. */
  @Post(['oauth/create-code', 'create-code'])
  @HttpCode(200)
  @SessionOnly()
  @RateLimit('create-code')
  createCode(@CurrentUser() user: UserRow, @Body() dto: CreateCodeDto) {
    return this.oauth.createCode(user.id, dto.clientID);
  }

  @Post('oauth/token')
  @HttpCode(200)
  @ApiConsumes('application/json', 'application/x-www-form-urlencoded')
  token(@Body() dto: TokenRequestDto) {
    return this.oauth.exchange(dto);
  }
}
