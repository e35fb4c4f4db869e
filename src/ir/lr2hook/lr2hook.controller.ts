import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { CurrentUser, RequirePermissions } from '../../http/auth/access.decorators.js';
import type { UserRow } from '../../http/auth/auth-context.js';
import { RawResponse } from '../../http/response-shapes.js';
import { ImportDocument } from '../../presenters/import.presenter.js';
import { Lr2hookService } from './lr2hook.service.js';

export class Lr2hookImportResponse {
  @ApiProperty({ enum: [true] }) success!: true;
  @ApiProperty() description!: string;
  @ApiProperty({ type: ImportDocument }) body!: ImportDocument;
}

export class Lr2hookCourseResult {
  @ApiPropertyOptional({ description: 'The course cleared.' }) course?: string;
  @ApiPropertyOptional({ description: 'The class set it gives (e.g. genocideDan).' }) set?: string;
  @ApiPropertyOptional({ description: 'The class value it gives (e.g. INSANE_1).' }) value?: string;
  @ApiPropertyOptional({ type: ImportDocument, description: 'The import that applied the class; its classDeltas say what changed.' })
  import?: ImportDocument;
}

export class Lr2hookCourseResponse {
  @ApiProperty({ enum: [true] }) success!: true;
  @ApiProperty() description!: string;
  @ApiProperty({ type: Lr2hookCourseResult, description: 'Empty when the course was not cleared.' }) body!: Lr2hookCourseResult;
}

/**
 * LR2Hook's routes, answered in Tachi's shape `{success, description, body}`. Errors come out as
 * `{success: false, description}` (the format's error shape). A per-score problem (unknown chart,
 * invalid score) is no HTTP error: it is in `body.errors`.
 */
@ApiTags('ir')
@Controller('ir/lr2hook')
@RawResponse()
export class Lr2hookController {
  constructor(private readonly lr2hook: Lr2hookService) {}

  @Post('import')
  @HttpCode(200)
  @RequirePermissions('submit_score')
  @ApiOkResponse({ type: Lr2hookImportResponse })
  async import(@CurrentUser() user: UserRow, @Body() body: unknown): Promise<Lr2hookImportResponse> {
    return { success: true, description: 'Import successful.', body: await this.lr2hook.import(user.id, body) };
  }

  /** A course clear raises the course's dan class (never lowers it); a course not cleared changes nothing. */
  @Post('import/course')
  @HttpCode(200)
  @RequirePermissions('submit_score')
  @ApiOkResponse({ type: Lr2hookCourseResponse })
  async course(@CurrentUser() user: UserRow, @Body() body: unknown): Promise<Lr2hookCourseResponse> {
    return { success: true, ...(await this.lr2hook.course(user.id, body)) };
  }
}
