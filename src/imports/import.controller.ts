import { applyDecorators, BadRequestException, Body, Controller, Headers, HttpCode, Post, Res, UploadedFile, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { ApiAcceptedResponse, ApiConsumes, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentUser, RequirePermissions } from '../http/auth/access.decorators.js';
import type { UserRow } from '../http/auth/auth-context.js';
import { assertAcceptableJson } from '../http/json-body.js';
import { ImportDocument } from '../presenters/import.presenter.js';
import { ImportFileDto } from './dto/import.dto.js';
import { OrphanRetryResponse, QueuedImportResponse } from './dto/import.responses.js';
import { ImportsService, type SubmitResult } from './imports.service.js';
import { OrphansService } from './orphans.service.js';

const FILE_IMPORT_TYPES = ['file/batch-manual'];

/** X-User-Intent: true marks an import the user asked for themselves (rather than an automatic sync). */
function userIntent(header: string | undefined): boolean {
  return header?.trim().toLowerCase() === 'true';
}

function answer(res: Response, result: SubmitResult): ImportDocument | QueuedImportResponse {
  if (result.kind === 'queued') {
    res.status(202);
    return { url: result.url, importID: result.importID };
  }
  return result.document;
}

/** Inline imports answer 200 with the ImportDocument; queued ones 202 with where to poll. */
const ApiImportResponses = () =>
  applyDecorators(
    ApiOkResponse({ type: ImportDocument, description: 'Imported in the request.' }),
    ApiAcceptedResponse({ type: QueuedImportResponse, description: 'Queued for an import worker: poll url.' }),
  );

@ApiTags('import')
@Controller()
export class ImportController {
  constructor(
    private readonly importsService: ImportsService,
    private readonly orphans: OrphansService,
  ) {}

  @Post('import/file')
  @HttpCode(200)
  @RequirePermissions('submit_score')
  @ApiConsumes('multipart/form-data')
  @UseInterceptors(FileInterceptor('scoreData'))
  @ApiImportResponses()
  async importFile(
    @CurrentUser() user: UserRow,
    @Body() dto: ImportFileDto,
    @Headers('x-user-intent') intent: string | undefined,
    @Res({ passthrough: true }) res: Response,
    @UploadedFile() file?: Express.Multer.File,
  ): Promise<ImportDocument | QueuedImportResponse> {
    if (!FILE_IMPORT_TYPES.includes(dto.importType))
      throw new BadRequestException(`Unknown importType '${dto.importType}'. Supported file import types: ${FILE_IMPORT_TYPES.join(', ')}.`);
    if (!file) throw new BadRequestException("Expected the score data as a file in the multipart field 'scoreData'.");
    let document: unknown;
    try {
      // Editors on Windows often save UTF-8 with a byte order mark, which JSON.parse refuses.
      document = JSON.parse(file.buffer.toString('utf8').replace(/^\uFEFF/, ''));
    } catch (err) {
      throw new BadRequestException(`The scoreData file is not valid JSON: ${(err as Error).message}`);
    }
    assertAcceptableJson(document, 'The scoreData file');
    return answer(res, await this.importsService.submit(user.id, 'file/batch-manual', document, userIntent(intent)));
  }

  /** Tachi's direct-manual route: the batch-manual document as the JSON body, for score hooks. Also served at /ir/direct-manual/import. */
  @Post('ir/direct-manual/import')
  @HttpCode(200)
  @RequirePermissions('submit_score')
  @ApiImportResponses()
  async directManual(
    @CurrentUser() user: UserRow,
    @Body() body: unknown,
    @Headers('x-user-intent') intent: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ImportDocument | QueuedImportResponse> {
    return answer(res, await this.importsService.submit(user.id, 'ir/direct-manual', body, userIntent(intent)));
  }

  @Post('import/orphans')
  @HttpCode(200)
  @RequirePermissions('submit_score')
  @ApiOkResponse({ type: OrphanRetryResponse })
  retryOrphans(@CurrentUser() user: UserRow): Promise<OrphanRetryResponse> {
    return this.orphans.retryForUser(user.id);
  }
}
