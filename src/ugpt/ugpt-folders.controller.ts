import { Controller, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { OwnerOnly, SessionOnly } from '../http/auth/access.decorators.js';
import { ApiEmptyObjectResponse, type EmptyObject } from '../http/empty-object.js';
import {
  FolderTimelineQuery,
  FolderSearchWithStatsResponse,
  FolderTimelineResponse,
  RecentFoldersResponse,
  UgptFolderResponse,
  UgptFolderSearchQuery,
  UgptTableResponse,
} from './dto/folders.dto.js';
import { Ugpt, UgptGuard, type UgptContext } from './ugpt.guard.js';
import { UgptFoldersService } from './ugpt-folders.service.js';

/** A player's folders and tables on a GPT: distributions, PBs, timelines, recently viewed. Public except recording a view. */
@ApiTags('ugpt')
@ApiNotFoundResponse({ description: 'Unknown user, game, playtype, folder or table, or the user has not played the GPT.' })
@Controller('users/:userID/games/:game/:playtype')
@UseGuards(UgptGuard)
export class UgptFoldersController {
  constructor(private readonly folders: UgptFoldersService) {}

  @Get('folders')
  @ApiOperation({ summary: "Up to 20 folders matching the search (active ones unless `inactive`), with the player's lamp and grade distributions on each." })
  @ApiOkResponse({ type: FolderSearchWithStatsResponse })
  search(@Ugpt() ugpt: UgptContext, @Query() query: UgptFolderSearchQuery): Promise<FolderSearchWithStatsResponse> {
    return this.folders.search(ugpt, query.search, query.inactive !== undefined);
  }

  @Get('folders/recent')
  @ApiOperation({ summary: 'The 6 folders the player viewed last, newest first, with their distributions.' })
  @ApiOkResponse({ type: RecentFoldersResponse })
  recent(@Ugpt() ugpt: UgptContext): Promise<RecentFoldersResponse> {
    return this.folders.recent(ugpt);
  }

  @Get('folders/:folderID')
  @ApiOperation({ summary: "The folder's charts and songs, the player's PBs on them, and the player's lamp and grade distributions." })
  @ApiOkResponse({ type: UgptFolderResponse })
  folder(@Ugpt() ugpt: UgptContext, @Param('folderID') folderID: string): Promise<UgptFolderResponse> {
    return this.folders.folder(ugpt, folderID);
  }

  @Get('folders/:folderID/timeline')
  @ApiOperation({ summary: 'When the player reached a lamp or grade on each chart of the folder: the first score reaching it per chart, earliest first.' })
  @ApiOkResponse({ type: FolderTimelineResponse })
  timeline(@Ugpt() ugpt: UgptContext, @Param('folderID') folderID: string, @Query() query: FolderTimelineQuery): Promise<FolderTimelineResponse> {
    return this.folders.timeline(ugpt, folderID, query.criteriaType, query.criteriaValue);
  }

  @Post('folders/:folderID/viewed')
  @HttpCode(200)
  @SessionOnly()
  @OwnerOnly()
  @ApiOperation({ summary: "Records that the player viewed the folder (the player's own session only); only the 6 latest views are kept." })
  @ApiEmptyObjectResponse()
  async viewed(@Ugpt() ugpt: UgptContext, @Param('folderID') folderID: string): Promise<EmptyObject> {
    await this.folders.viewed(ugpt, folderID);
    return {};
  }

  @Get('tables/:tableID')
  @ApiOperation({ summary: "The table's folders in the table's order, with the player's lamp and grade distributions on each." })
  @ApiOkResponse({ type: UgptTableResponse })
  table(@Ugpt() ugpt: UgptContext, @Param('tableID') tableID: string): Promise<UgptTableResponse> {
    return this.folders.table(ugpt, tableID);
  }
}
