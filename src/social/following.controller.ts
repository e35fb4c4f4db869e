import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { OwnerOnly, RequireUser, TargetUser } from '../http/auth/access.decorators.js';
import type { UserRow } from '../http/auth/auth-context.js';
import { UserDocument } from '../presenters/user.presenter.js';
import { FollowDto } from './dto/social.dto.js';
import { SocialService } from './social.service.js';

/** Whom a user follows (site-wide); following and unfollowing are the user's own. */
@ApiTags('social')
@Controller('users/:userID/following')
export class FollowingController {
  constructor(private readonly social: SocialService) {}

  @Get()
  @ApiOperation({ summary: 'The users this user follows. Public.' })
  @ApiOkResponse({ type: UserDocument, isArray: true })
  list(@TargetUser() user: UserRow): Promise<UserDocument[]> {
    return this.social.following(user);
  }

  @Post('add')
  @HttpCode(200)
  @RequireUser()
  @OwnerOnly()
  @ApiOperation({ summary: 'Follow {userID}: 400 yourself or past MAX_FOLLOWING (default 1000), 404 unknown, 409 already followed. Returns whom you follow.' })
  @ApiOkResponse({ type: UserDocument, isArray: true })
  add(@TargetUser() user: UserRow, @Body() dto: FollowDto): Promise<UserDocument[]> {
    return this.social.follow(user, dto.userID);
  }

  @Post('remove')
  @HttpCode(200)
  @RequireUser()
  @OwnerOnly()
  @ApiOperation({ summary: 'Unfollow {userID}: 404 unknown, 409 not followed. Returns whom you follow.' })
  @ApiOkResponse({ type: UserDocument, isArray: true })
  remove(@TargetUser() user: UserRow, @Body() dto: FollowDto): Promise<UserDocument[]> {
    return this.social.unfollow(user, dto.userID);
  }
}
