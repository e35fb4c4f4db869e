import { Body, Controller, Get, HttpCode, Post, Req } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { restampSession } from '../auth/start-session.js';
import { OwnerOnly, SessionOnly, TargetUser } from '../http/auth/access.decorators.js';
import type { UserRow } from '../http/auth/auth-context.js';
import { ApiEmptyObjectResponse, type EmptyObject } from '../http/empty-object.js';
import { Description } from '../http/envelope.js';
import { ApiErrors } from '../http/openapi-errors.js';
import { RateLimit } from '../http/rate-limit/rate-limit.decorator.js';
import type { ApiRequest } from '../http/request.js';
import { EmailDocument, EmailVerifiedDocument, UsernameChangeDocument } from '../presenters/account.presenter.js';
import { AccountSettingsService } from './account-settings.service.js';
import { ChangeEmailDto, ChangePasswordDto, ChangeUsernameDto } from './dto/account-settings.dto.js';

/**
 * The account's credentials: password, username and email address. Only the user, through a
 * session (API tokens get 403); each change needs the current password (403 when wrong).
 */
@ApiTags('users')
@ApiExtraModels(EmailDocument, EmailVerifiedDocument)
@Controller('users/:userID')
@SessionOnly()
@OwnerOnly()
export class CredentialsController {
  constructor(private readonly account: AccountSettingsService) {}

  @Post('change-password')
  @HttpCode(200)
  @RateLimit('account-change')
  @Description('Updated your password.')
  @ApiOperation({ summary: "Sets a new password; the user's other sessions are signed out (this one stays), and a notice is mailed." })
  @ApiEmptyObjectResponse()
  async changePassword(@Req() req: ApiRequest, @TargetUser() user: UserRow, @Body() dto: ChangePasswordDto): Promise<EmptyObject> {
    await restampSession(req, await this.account.changePassword(user, dto));
    return {};
  }

  @Post('change-username')
  @HttpCode(200)
  @RateLimit('account-change')
  @ApiErrors(409)
  @Description('Updated your username.')
  @ApiOperation({ summary: 'Renames the user: a free username (409), at most once every 180 days (409, saying when). A notice is mailed.' })
  @ApiEmptyObjectResponse()
  async changeUsername(@TargetUser() user: UserRow, @Body() dto: ChangeUsernameDto): Promise<EmptyObject> {
    await this.account.changeUsername(user, dto);
    return {};
  }

  @Get('last-username-change')
  @ApiOperation({ summary: 'When the user last changed their username, and when they may again.' })
  @ApiOkResponse({ type: UsernameChangeDocument })
  lastUsernameChange(@TargetUser() user: UserRow): Promise<UsernameChangeDocument> {
    return this.account.lastUsernameChange(user);
  }

  @Get('email')
  @ApiOperation({ summary: "The account's email address." })
  @ApiOkResponse({
    description: 'spec: {email}; API_PROFILE=tachi: the address itself (a JSON string), as Tachi answers.',
    schema: { oneOf: [{ $ref: getSchemaPath(EmailDocument) }, { type: 'string' }] },
  })
  email(@TargetUser() user: UserRow): Promise<EmailDocument> {
    return this.account.email(user);
  }

  @Post('change-email')
  @HttpCode(200)
  @RateLimit('account-change')
  @ApiErrors(409)
  @Description('Changed your email address; a verification code was sent to it.')
  @ApiOperation({ summary: 'Changes the address (409 when another account has it); it is unverified until the code mailed to it is used.' })
  @ApiEmptyObjectResponse()
  async changeEmail(@TargetUser() user: UserRow, @Body() dto: ChangeEmailDto): Promise<EmptyObject> {
    await this.account.changeEmail(user, dto);
    return {};
  }

  @Get('is-email-verified')
  @ApiOperation({ summary: 'Whether the account verified its email address.' })
  @ApiOkResponse({
    description: 'spec: {verified}; API_PROFILE=tachi: the boolean itself, as Tachi answers.',
    schema: { oneOf: [{ $ref: getSchemaPath(EmailVerifiedDocument) }, { type: 'boolean' }] },
  })
  isEmailVerified(@TargetUser() user: UserRow): Promise<EmailVerifiedDocument> {
    return this.account.isEmailVerified(user);
  }
}
