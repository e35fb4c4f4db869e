import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiConsumes, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ApiKeyDocument } from '../presenters/api-key.presenter.js';
import { CurrentUser, SessionOnly } from '../http/auth/access.decorators.js';
import type { UserRow } from '../http/auth/auth-context.js';
import { RateLimit } from '../http/rate-limit/rate-limit.decorator.js';
import { CreateCodeDto, TokenRequestDto } from './dto/oauth.dto.js';
import { OAuthCodeResponse } from './dto/oauth.responses.js';
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
  @ApiOkResponse({ type: OAuthCodeResponse })
  createCode(@CurrentUser() user: UserRow, @Body() dto: CreateCodeDto): Promise<OAuthCodeResponse> {
    return this.oauth.createCode(user.id, dto.clientID);
  }

  @Post('oauth/token')
  @HttpCode(200)
  @ApiConsumes('application/json', 'application/x-www-form-urlencoded')
  @ApiOkResponse({ type: ApiKeyDocument, description: 'The issued APIKeyDocument, with its token.' })
  token(@Body() dto: TokenRequestDto): Promise<ApiKeyDocument> {
    return this.oauth.exchange(dto);
  }
}
