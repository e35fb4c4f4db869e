import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { InvitesService } from '../auth/invites.service.js';
import { CurrentUser, OwnerOnly, SessionOnly, TargetUser } from '../http/auth/access.decorators.js';
import type { UserRow } from '../http/auth/auth-context.js';
import { Description } from '../http/envelope.js';
import { InviteDocument, InviteLimitResponse, UserInvitesResponse } from '../presenters/account.presenter.js';

/** The invites a user creates for others (`/users/:userID/invites`): INVITE_ONLY deployments only (404 elsewhere); the user's session only. */
@ApiTags('users')
@Controller('users/:userID/invites')
@SessionOnly()
@OwnerOnly()
@ApiNotFoundResponse({ description: 'The server is not invite-only.' })
export class InvitesController {
  constructor(private readonly invites: InvitesService) {}

  @Get()
  @ApiOperation({ summary: 'The invites the user created, oldest first, and the users who registered with them.' })
  @ApiOkResponse({ type: UserInvitesResponse })
  list(@TargetUser() user: UserRow): Promise<UserInvitesResponse> {
    return this.invites.ofUser(user);
  }

  @Get('limit')
  @ApiOperation({
    summary:
      'How many invites the user created, and how many they may: INVITE_BATCH_SIZE per 28 days since joining, plus INVITE_BETA_BONUS, at most INVITE_CAP.',
  })
  @ApiOkResponse({ type: InviteLimitResponse })
  limit(@TargetUser() user: UserRow): Promise<InviteLimitResponse> {
    return this.invites.limit(user);
  }

  @Post('create')
  @HttpCode(200)
  @Description('Created an invite.')
  @ApiOperation({ summary: 'Creates an invite code (40 hexadecimal characters); 400 once the user created their limit (administrators are exempt).' })
  @ApiOkResponse({ type: InviteDocument })
  create(@TargetUser() user: UserRow, @CurrentUser() requester: UserRow): Promise<InviteDocument> {
    return this.invites.createFor(user, requester);
  }
}
