import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { TargetUser } from '../http/auth/access.decorators.js';
import type { UserRow } from '../http/auth/auth-context.js';
import { GAMES } from '../game-support/registry.js';
import { IMPORT_TYPES } from '../imports/import-types/registry.js';
import { FailedImportDocument, ImportDocument, toFailedImportDocument, toImportDocument } from '../presenters/import.presenter.js';
import { ImportsRepository } from '../repositories/imports.repository.js';
import { TachiConfigResponse, UserImportsQuery } from './dto/tachi.dto.js';

/** As Tachi: a user's import history holds their 500 latest. */
export const USER_IMPORTS_LIMIT = 500;

/** The service's name in Tachi's /config. */
export const SERVICE_NAME = 'Score Tracker';

/** Tachi's read routes its web client calls on every page that the spec leaves out; served under API_PROFILE=tachi only. */
@ApiTags('tachi')
@Controller()
export class TachiController {
  constructor(private readonly imports: ImportsRepository) {}

  @Get('config')
  @ApiOperation({ summary: "Tachi's bootstrap: the service's name, its games and import types." })
  @ApiOkResponse({ type: TachiConfigResponse })
  config(): TachiConfigResponse {
    return { name: SERVICE_NAME, type: 'omni', games: GAMES.map((g) => g.game), importTypes: IMPORT_TYPES.map((t) => t.name) };
  }

  @Get('users/:userID/imports')
  @ApiOperation({ summary: "The user's 500 latest completed imports, latest finished first. Public." })
  @ApiOkResponse({ type: ImportDocument, isArray: true })
  async list(@TargetUser() user: UserRow, @Query() query: UserImportsQuery): Promise<ImportDocument[]> {
    return (await this.imports.listByUser(user.id, 'completed', filterOf(query), USER_IMPORTS_LIMIT)).map(toImportDocument);
  }

  @Get('users/:userID/imports/failed')
  @ApiOperation({ summary: "The user's 500 latest failed imports, latest started first. Public." })
  @ApiOkResponse({ type: FailedImportDocument, isArray: true })
  async failed(@TargetUser() user: UserRow, @Query() query: UserImportsQuery): Promise<FailedImportDocument[]> {
    return (await this.imports.listByUser(user.id, 'failed', filterOf(query), USER_IMPORTS_LIMIT)).map(toFailedImportDocument);
  }
}

const filterOf = (query: UserImportsQuery) => ({
  importType: query.importType,
  userIntent: query.userIntent === undefined ? undefined : query.userIntent === 'true',
});
