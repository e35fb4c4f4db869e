import { Body, Controller, Get, Patch, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { OwnerOnly, SelfKeyOnly, TargetUser } from '../http/auth/access.decorators.js';
import type { UserRow } from '../http/auth/auth-context.js';
import { ListUsersQuery, PatchUserDto } from './dto/users.dto.js';
import { toUserDocument } from '../presenters/user.presenter.js';
import { UsersService } from './users.service.js';

@ApiTags('users')
@Controller('users')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Get()
  @ApiOperation({ summary: 'Up to 100 users, most recently seen first.' })
  list(@Query() query: ListUsersQuery) {
    return this.users.list(query.online !== undefined, query.search);
  }

  @Get(':userID')
  get(@TargetUser() user: UserRow) {
    return toUserDocument(user);
  }

  @Patch(':userID')
  @SelfKeyOnly()
  @OwnerOnly()
  patch(@TargetUser() user: UserRow, @Body() dto: PatchUserDto) {
    return this.users.patch(user, dto);
  }

  @Get(':userID/game-stats')
  gameStats(@TargetUser() user: UserRow) {
    return this.users.gameStats(user.id);
  }
}
