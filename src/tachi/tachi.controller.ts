import { PrimaryRead } from '../http/read-routing/primary-read.js';
import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AppConfig } from '../config/app-config.js';
import { TargetUser } from '../http/auth/access.decorators.js';
import type { UserRow } from '../http/auth/auth-context.js';
import { GAMES } from '../game-support/registry.js';
import { IMPORT_TYPES } from '../imports/import-types/registry.js';
import { enabledApiImportTypes } from '../integrations/from-api/from-api.service.js';
import { FailedImportDocument, ImportDocument } from '../presenters/import.presenter.js';
import { RecentFailedImportsResponse, RecentImportsResponse, TachiConfigResponse, UserImportsQuery } from './dto/tachi.dto.js';
import { TachiService, type UserImportsFilter } from './tachi.service.js';

/** The service's name in Tachi's /config. */
export const SERVICE_NAME = 'Score Tracker';

/** Tachi's read routes its web client calls on every page that the spec leaves out; served under API_PROFILE=tachi only. */
@ApiTags('tachi')
@Controller()
export class TachiController {
  constructor(
    private readonly tachi: TachiService,
    private readonly appConfig: AppConfig,
  ) {}

  @Get('config')
  @ApiOperation({
    summary: "Tachi's bootstrap (tachi-common's TachiServerCoreConfig): the service's name, its games and import types, and whether anyone may register.",
  })
  @ApiOkResponse({ type: TachiConfigResponse })
  config(): TachiConfigResponse {
    return {
      NAME: SERVICE_NAME,
      TYPE: 'omni',
      GAMES: GAMES.map((g) => g.game),
      // api/ types only where their service is configured.
      IMPORT_TYPES: [...IMPORT_TYPES.map((t) => t.name).filter((name) => !name.startsWith('api/')), ...enabledApiImportTypes(this.appConfig)],
      // Tachi's "POST /auth/register is open" (it answers 501 when false). Here registering always works: with INVITE_ONLY it takes an invite code.
      SIGNUPS_ENABLED: true,
    };
  }

  @Get('config/max-rivals')
  @ApiOperation({ summary: 'How many rivals a user may set on one GPT (MAX_RIVALS): a bare integer.' })
  @ApiOkResponse({ schema: { type: 'integer' } })
  maxRivals(): number {
    return this.appConfig.MAX_RIVALS;
  }

  @Get('imports')
  @PrimaryRead()
  @ApiOperation({
    summary: "Everyone's 500 latest completed imports, latest finished first, with their users (the client's import analysers). Public, as Tachi's.",
  })
  @ApiOkResponse({ type: RecentImportsResponse })
  recentImports(@Query() query: UserImportsQuery): Promise<RecentImportsResponse> {
    return this.tachi.recentImports(filterOf(query));
  }

  @Get('imports/failed')
  @PrimaryRead()
  @ApiOperation({
    summary: "Everyone's 500 latest failed imports, latest started first, with their users (the client's import analysers). Public, as Tachi's.",
  })
  @ApiOkResponse({ type: RecentFailedImportsResponse })
  recentFailedImports(@Query() query: UserImportsQuery): Promise<RecentFailedImportsResponse> {
    return this.tachi.recentFailedImports(filterOf(query));
  }

  @Get('users/:userID/imports')
  @PrimaryRead()
  @ApiOperation({ summary: "The user's 500 latest completed imports, latest finished first. Public." })
  @ApiOkResponse({ type: ImportDocument, isArray: true })
  list(@TargetUser() user: UserRow, @Query() query: UserImportsQuery): Promise<ImportDocument[]> {
    return this.tachi.completedImports(user.id, filterOf(query));
  }

  @Get('users/:userID/imports/failed')
  @PrimaryRead()
  @ApiOperation({ summary: "The user's 500 latest failed imports, latest started first. Public." })
  @ApiOkResponse({ type: FailedImportDocument, isArray: true })
  failed(@TargetUser() user: UserRow, @Query() query: UserImportsQuery): Promise<FailedImportDocument[]> {
    return this.tachi.failedImports(user.id, filterOf(query));
  }
}

const filterOf = (query: UserImportsQuery): UserImportsFilter => ({
  importType: query.importType,
  userIntent: query.userIntent === undefined ? undefined : query.userIntent === 'true',
});
