import { Body, Controller, Get, Patch, Put, Query, UseGuards } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, OwnerOnly, RequirePermissions } from '../http/auth/access.decorators.js';
import type { AuthContext } from '../http/auth/auth-context.js';
import type { StatDocument } from '../database/schema.js';
import { CustomStatQuery, ShowcaseQuery } from './dto/ugpt.dto.js';
import { ChartStatRelated, CustomStatResponse, FolderStatRelated, STAT_SCHEMA, StatShowcaseResult, UgptSettingsDocument } from './dto/ugpt.responses.js';
import { ShowcaseService } from './showcase.service.js';
import { SHOWCASE_MAX_STATS, StatListPipe } from './showcase-stats.js';
import { Ugpt, UgptGuard, type UgptContext } from './ugpt.guard.js';

/** The stat showcase of a user on a GPT (spec 4.8, StatDocument, StatShowcaseResults). */
@ApiTags('ugpt')
@ApiNotFoundResponse({ description: 'Unknown user, game or playtype, or the user has not played the GPT.' })
@ApiExtraModels(ChartStatRelated, FolderStatRelated)
@Controller('users/:userID/games/:game/:playtype/showcase')
@UseGuards(UgptGuard)
export class ShowcaseController {
  constructor(private readonly showcase: ShowcaseService) {}

  @Get()
  @ApiOperation({
    summary:
      "StatShowcaseResults[]: [{stat, value: {value, outOf?}, related}] of the user's stats, or of projectUser's stats evaluated against this user. Public.",
  })
  @ApiOkResponse({ type: StatShowcaseResult, isArray: true })
  get(@Ugpt() ugpt: UgptContext, @Query() query: ShowcaseQuery, @Auth() auth: AuthContext): Promise<StatShowcaseResult[]> {
    return this.showcase.showcase(ugpt, query.projectUser, auth.user);
  }

  @Get('custom')
  @ApiOperation({ summary: '{stat, result: {value, outOf?}, related}: one stat from the query evaluated against the user. Public.' })
  @ApiOkResponse({ type: CustomStatResponse })
  custom(@Ugpt() ugpt: UgptContext, @Query() query: CustomStatQuery): Promise<CustomStatResponse> {
    return this.showcase.custom(ugpt, query);
  }

  @Patch()
  @RequirePermissions('customise_profile')
  @OwnerOnly()
  @ApiBody({ schema: { type: 'array', maxItems: SHOWCASE_MAX_STATS, items: STAT_SCHEMA } })
  @ApiOperation({ summary: 'Replace the showcase with up to 6 stats whose charts and folders exist in this GPT. Returns the StatDocument array.' })
  @ApiOkResponse({ schema: { type: 'array', items: STAT_SCHEMA }, description: 'The showcase as saved.' })
  replace(@Ugpt() ugpt: UgptContext, @Body(StatListPipe) stats: StatDocument[]): Promise<StatDocument[]> {
    return this.showcase.replace(ugpt, stats);
  }

  @Put()
  @RequirePermissions('customise_profile')
  @OwnerOnly()
  @ApiBody({ schema: { type: 'array', maxItems: SHOWCASE_MAX_STATS, items: STAT_SCHEMA } })
  @ApiOperation({
    summary:
      "Tachi's web client's write: as PATCH (up to 6 stats whose charts and folders exist in this GPT; a folder stat names one folderID, a string), but answers the UGPT settings document with the new stats.",
  })
  @ApiOkResponse({ type: UgptSettingsDocument })
  put(@Ugpt() ugpt: UgptContext, @Body(StatListPipe) stats: StatDocument[]): Promise<UgptSettingsDocument> {
    return this.showcase.replaceAndGetSettings(ugpt, stats);
  }
}
