import { Body, Controller, Delete, Get, HttpCode, Patch, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { PasswordConfirmationDto } from '../auth/dto/auth.dto.js';
import { ApiEmptyObjectResponse, type EmptyObject } from '../http/empty-object.js';
import { ApiErrors } from '../http/openapi-errors.js';
import { OwnerOnly, SelfKeyOnly, SessionOnly, TargetUser } from '../http/auth/access.decorators.js';
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

  @Delete(':userID')
  @HttpCode(200)
  @ApiErrors(409)
  @SessionOnly()
  @OwnerOnly()
  @ApiOperation({ summary: 'Deletes the account and everything of it; needs a session of the user and their !password (401 when wrong).' })
  @ApiEmptyObjectResponse()
  async delete(@TargetUser() user: UserRow, @Body() dto: PasswordConfirmationDto): Promise<EmptyObject> {
    await this.users.deleteAccount(user, dto['!password']);
    return {};
  }

  @Get(':userID/game-stats')
  @ApiOkResponse({ type: RankedGameStatsDocument, isArray: true, description: 'Empty when the user has played nothing.' })
  gameStats(@TargetUser() user: UserRow): Promise<RankedGameStatsDocument[]> {
    return this.users.gameStats(user.id);
  }
}
