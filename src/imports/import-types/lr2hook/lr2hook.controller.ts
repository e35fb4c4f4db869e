import { BadRequestException, Body, Controller, HttpCode, NotFoundException, Post } from '@nestjs/common';
import { ApiOkResponse, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { CurrentUser, RequirePermissions } from '../../../http/auth/access.decorators.js';
import type { UserRow } from '../../../http/auth/auth-context.js';
import { RawResponse } from '../../../http/response-shapes.js';
import { ImportDocument } from '../../../presenters/import.presenter.js';
import { CatalogRepository } from '../../../repositories/catalog.repository.js';
import { ImportsService, type SubmitResult } from '../../imports.service.js';
import { COURSE_MD5S, courseCleared, lr2hookCourse, type ClearedCourse } from './course.js';
import { checkLr2hookBody, lr2hook } from './lr2hook.js';

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

/** Hook imports run in the request, so their answer is always the completed ImportDocument. */
function completed(result: SubmitResult): ImportDocument {
  if (result.kind !== 'completed') throw new Error('A score hook import was queued instead of run in the request.');
  return result.document;
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
  constructor(
    private readonly importsService: ImportsService,
    private readonly catalog: CatalogRepository,
  ) {}

  @Post('import')
  @HttpCode(200)
  @RequirePermissions('submit_score')
  @ApiOkResponse({ type: Lr2hookImportResponse })
  async import(@CurrentUser() user: UserRow, @Body() body: unknown): Promise<Lr2hookImportResponse> {
    const result = await this.importsService.submit(user.id, lr2hook, { body, fields: {} }, false, { inline: true });
    return { success: true, description: 'Import successful.', body: completed(result) };
  }

  /** A course clear raises the course's dan class (never lowers it); a course not cleared changes nothing. */
  @Post('import/course')
  @HttpCode(200)
  @RequirePermissions('submit_score')
  @ApiOkResponse({ type: Lr2hookCourseResponse })
  async course(@CurrentUser() user: UserRow, @Body() body: unknown): Promise<Lr2hookCourseResponse> {
    const payload = checkLr2hookBody(body);
    if (!courseCleared(payload.scoreData)) return { success: true, description: 'Class not updated: the course was not cleared.', body: {} };
    const md5sums = payload.md5.toLowerCase();
    if (!COURSE_MD5S.test(md5sums)) throw new BadRequestException("A course's md5 must be its four charts' MD5s concatenated (128 hex characters).");
    const found = await this.catalog.bmsCourse(md5sums);
    if (!found) throw new NotFoundException('Unsupported course.');
    const course: ClearedCourse = found;
    const document = completed(await this.importsService.submit(user.id, lr2hookCourse, { fields: { course } }, false, { inline: true }));
    const raised = document.classDeltas.some((d) => d.set === course.set && d.new === course.value);
    return {
      success: true,
      description: raised ? `Class updated: ${course.title} cleared.` : `Class not updated: your ${course.set} is already ${course.value} or higher.`,
      body: { course: course.title, set: course.set, value: course.value, import: document },
    };
  }
}
