import { Body, Controller, Get, Patch, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { OwnerOnly, SelfKeyOnly, TargetUser } from '../http/auth/access.decorators.js';
import type { UserRow } from '../http/auth/auth-context.js';
import { ListUsersQuery, PatchUserDto } from './dto/users.dto.js';
import { RankedGameStatsDocument } from './dto/user.responses.js';
import { toUserDocument, UserDocument } from '../presenters/user.presenter.js';
import { UsersService } from './users.service.js';

@ApiTags('users')
@Controller('users')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Get()
  @ApiOperation({ summary: 'Up to 100 users, most recently seen first.' })
  @ApiOkResponse({ type: UserDocument, isArray: true })
  list(@Query() query: ListUsersQuery): Promise<UserDocument[]> {
    return this.users.list(query.online !== undefined, query.search);
  }

  @Get(':userID')
  @ApiOkResponse({ type: UserDocument })
  get(@TargetUser() user: UserRow): UserDocument {
    return toUserDocument(user);
  }

  @Patch(':userID')
  @SelfKeyOnly()
  @OwnerOnly()
  @ApiOkResponse({ type: UserDocument })
  patch(@TargetUser() user: UserRow, @Body() dto: PatchUserDto): Promise<UserDocument> {
    return this.users.patch(user, dto);
  }

  @Get(':userID/game-stats')
  @ApiOkResponse({ type: RankedGameStatsDocument, isArray: true, description: 'Empty when the user has played nothing.' })
  gameStats(@TargetUser() user: UserRow): Promise<RankedGameStatsDocument[]> {
    return this.users.gameStats(user.id);
  }
}
