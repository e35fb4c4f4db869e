import { Body, Controller, Delete, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { Auth, RequireAdmin, TargetUser } from '../http/auth/access.decorators.js';
import type { AuthContext, UserRow } from '../http/auth/auth-context.js';
import { ApiEmptyObjectResponse, type EmptyObject } from '../http/empty-object.js';
import { AdminService, type Actor } from './admin.service.js';
import {
  AnnouncementDto,
  AuditQuery,
  ChangeLogLevelDto,
  DeleteScoreDto,
  DeleteUserDto,
  DestroyChartDto,
  DestroyUgptDto,
  RecalcDto,
  ResyncPbsDto,
} from './dto/admin.dto.js';
import { ApiErrors } from '../http/openapi-errors.js';

class RecalcResponse {
  @ApiProperty({ type: 'integer' })
  scoresRecalced!: number;
}

class AnnouncementResponse {
  @ApiProperty({ type: 'integer', description: 'Users the notification reached.' })
  sent!: number;
}

class ReprocessGoalsResponse {
  @ApiProperty({ type: 'integer', description: 'Users and GPTs with goal subscriptions, each re-evaluated.' })
  profiles!: number;
  @ApiProperty({ type: 'integer', description: 'Goal subscriptions whose progress or outOf changed.' })
  moved!: number;
}

class AuditEntryDocument {
  @ApiProperty({ type: 'integer' }) id!: number;
  @ApiProperty({ type: 'integer', nullable: true, description: 'The administrator; null for the CLI.' }) userID!: number | null;
  @ApiProperty({ enum: ['session', 'token', 'cli'] }) via!: string;
  @ApiProperty() action!: string;
  @ApiProperty({ type: 'object', additionalProperties: true }) params!: Record<string, unknown>;
  @ApiProperty({ type: 'integer' }) timestamp!: number;
}

const actorOf = (auth: AuthContext): Actor => ({ userID: auth.user?.id ?? null, via: auth.kind === 'token' ? 'token' : 'session' });

@ApiTags('admin')
@RequireAdmin()
@Controller('admin')
export class AdminController {
  constructor(private readonly admin: AdminService) {}

  @Post('change-log-level')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Set the log level now, in every API and worker process (through Redis when configured); each returns to its configured level after `duration` minutes unless `noReset`.',
  })
  @ApiEmptyObjectResponse()
  async changeLogLevel(@Auth() auth: AuthContext, @Body() dto: ChangeLogLevelDto): Promise<EmptyObject> {
    await this.admin.changeLogLevel(actorOf(auth), dto);
    return {};
  }

  @Post('delete-score')
  @ApiErrors(409)
  @HttpCode(200)
  @ApiOperation({ summary: "Delete any score, as its owner's delete does (PB, ranks, session, import, profile)." })
  @ApiEmptyObjectResponse()
  async deleteScore(@Auth() auth: AuthContext, @Body() dto: DeleteScoreDto): Promise<EmptyObject> {
    await this.admin.deleteScore(actorOf(auth), dto.scoreID);
    return {};
  }

  @Post('resync-pbs')
  @HttpCode(200)
  @ApiOperation({ summary: 'Recompute PBs and ranks of these users (default all) matching the filter (game, playtype, chartID, userID).' })
  @ApiEmptyObjectResponse()
  async resyncPbs(@Auth() auth: AuthContext, @Body() dto: ResyncPbsDto): Promise<EmptyObject> {
    await this.admin.resyncPbs(actorOf(auth), dto);
    return {};
  }

  @Post('destroy-ugpt')
  @ApiErrors(409)
  @HttpCode(200)
  @ApiOperation({ summary: "Remove a user's profile on a GPT: scores, PBs, sessions, stats, snapshots; ranks are fixed." })
  @ApiEmptyObjectResponse()
  async destroyUgpt(@Auth() auth: AuthContext, @Body() dto: DestroyUgptDto): Promise<EmptyObject> {
    await this.admin.destroyUgpt(actorOf(auth), dto);
    return {};
  }

  @Post('delete-user')
  @HttpCode(200)
  @ApiErrors(409)
  @ApiOperation({ summary: 'Delete a user and everything of theirs, as DELETE /users/:userID does; the leaderboards they were on are fixed.' })
  @ApiEmptyObjectResponse()
  async deleteUser(@Auth() auth: AuthContext, @Body() dto: DeleteUserDto): Promise<EmptyObject> {
    await this.admin.deleteUser(actorOf(auth), dto.userID);
    return {};
  }

  @Post('destroy-chart')
  @ApiErrors(409)
  @HttpCode(200)
  @ApiOperation({ summary: 'Remove a chart, its scores and PBs; the players concerned are recomputed.' })
  @ApiEmptyObjectResponse()
  async destroyChart(@Auth() auth: AuthContext, @Body() dto: DestroyChartDto): Promise<EmptyObject> {
    await this.admin.destroyChart(actorOf(auth), dto);
    return {};
  }

  @Post('supporter/:userID')
  @HttpCode(200)
  @ApiOperation({ summary: "Mark the user (id or username) a supporter: Tachi's UserDocument shows isSupporter true. 404 for an unknown user." })
  @ApiEmptyObjectResponse()
  async addSupporter(@Auth() auth: AuthContext, @TargetUser() user: UserRow): Promise<EmptyObject> {
    await this.admin.setSupporter(actorOf(auth), user.id, true);
    return {};
  }

  @Delete('supporter/:userID')
  @HttpCode(200)
  @ApiOperation({ summary: 'The user (id or username) is no longer a supporter. 404 for an unknown user.' })
  @ApiEmptyObjectResponse()
  async removeSupporter(@Auth() auth: AuthContext, @TargetUser() user: UserRow): Promise<EmptyObject> {
    await this.admin.setSupporter(actorOf(auth), user.id, false);
    return {};
  }

  @Post('recalc')
  @HttpCode(200)
  @ApiOperation({ summary: 'Recompute calculatedData, PBs, sessions and profiles of the matching scores (empty body: all), in batches.' })
  @ApiOkResponse({ type: RecalcResponse })
  async recalc(@Auth() auth: AuthContext, @Body() dto: RecalcDto): Promise<RecalcResponse> {
    return { scoresRecalced: await this.admin.recalc(actorOf(auth), dto) };
  }

  @Post('announcement')
  @HttpCode(200)
  @ApiOperation({ summary: "Send a SITE_ANNOUNCEMENT notification with this title to every user (as the CLI's announce)." })
  @ApiOkResponse({ type: AnnouncementResponse })
  async announcement(@Auth() auth: AuthContext, @Body() dto: AnnouncementDto): Promise<AnnouncementResponse> {
    return { sent: await this.admin.announce(actorOf(auth), dto.title) };
  }

  @Post('reprocess-all-goals')
  @HttpCode(200)
  @ApiOperation({
    summary: "Re-evaluate every user's goal subscriptions (and the quests holding a goal that moved) from their PBs, one user and GPT at a time.",
  })
  @ApiOkResponse({ type: ReprocessGoalsResponse })
  reprocessAllGoals(@Auth() auth: AuthContext): Promise<ReprocessGoalsResponse> {
    return this.admin.reprocessAllGoals(actorOf(auth));
  }

  @Get('audit')
  @ApiOperation({ summary: 'The audit log of admin actions, newest first; `before` (an entry id) pages on.' })
  @ApiOkResponse({ type: [AuditEntryDocument] })
  audit(@Query() query: AuditQuery): Promise<AuditEntryDocument[]> {
    return this.admin.listAudit(query.limit ?? 100, query.before);
  }
}
