import { applyDecorators, BadRequestException, Body, Controller, Headers, HttpCode, Post, Res, UploadedFile } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBody, ApiConsumes, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentUser, RequirePermissions } from '../http/auth/access.decorators.js';
import type { UserRow } from '../http/auth/auth-context.js';
import { ImportDocument } from '../presenters/import.presenter.js';
import { ImportFileForm } from './dto/import.dto.js';
import { OrphanRetryResponse, QueuedImportResponse } from './dto/import.responses.js';
import { FILE_IMPORT_TYPES, findImportType } from './import-types/registry.js';
import type { ImportType } from './import-types/types.js';
import { ImportsService, type SubmitResult } from './imports.service.js';
import { OrphansService } from './orphans.service.js';
import { ApiErrors } from '../http/openapi-errors.js';
import { FileUpload } from '../http/file-upload.js';
import { Description } from '../http/envelope.js';
import { AppConfig } from '../config/app-config.js';

const DIRECT_MANUAL = findImportType('ir/direct-manual') as ImportType;

/** X-User-Intent: true marks an import the user asked for themselves (rather than an automatic sync). */
function userIntent(header: string | undefined): boolean {
  return header?.trim().toLowerCase() === 'true';
}

/**
 * Inline imports answer 200 with the ImportDocument; queued ones 202 with where to poll. Under API_PROFILE=tachi every
 * import answers 202 with where to poll, as Tachi's deployments (which import on workers) do: its clients and bots
 * read `body.url` and poll it, also when the import already finished in the request.
 */
const ApiImportResponses = () =>
  applyDecorators(
    ApiOkResponse({ type: ImportDocument, description: 'Imported in the request.' }),
    ApiAcceptedResponse({ type: QueuedImportResponse, description: 'Queued for an import worker (under API_PROFILE=tachi: every import): poll url.' }),
    Description('Import loaded into queue. You can poll the provided URL for information on when it is complete.'),
  );

@ApiTags('import')
@Controller()
export class ImportController {
  constructor(
    private readonly importsService: ImportsService,
    private readonly orphans: OrphansService,
    private readonly config: AppConfig,
  ) {}

  @Post('import/file')
  @ApiErrors(409)
  @HttpCode(200)
  @RequirePermissions('submit_score')
  @ApiConsumes('multipart/form-data')
  @ApiBody({ type: ImportFileForm })
  @FileUpload('scoreData', { bytes: (config) => config.IMPORT_FILE_LIMIT_BYTES, setting: 'IMPORT_FILE_LIMIT_BYTES' })
  @ApiImportResponses()
  async importFile(
    @CurrentUser() user: UserRow,
    @Body() form: Record<string, unknown>,
    @Headers('x-user-intent') intent: string | undefined,
    @Res({ passthrough: true }) res: Response,
    @UploadedFile() file?: Express.Multer.File,
  ): Promise<ImportDocument | QueuedImportResponse> {
    // The form is read by the import type (each takes its own fields), so it is no validated DTO.
    const { importType, ...fields } = form ?? {};
    if (typeof importType !== 'string' || !importType) throw new BadRequestException(`importType is required: one of ${FILE_IMPORT_TYPES.join(', ')}.`);
    const type = FILE_IMPORT_TYPES.includes(importType) ? findImportType(importType) : undefined;
    if (!type) throw new BadRequestException(`Unknown importType '${importType.slice(0, 100)}'. Supported file import types: ${FILE_IMPORT_TYPES.join(', ')}.`);
    return this.answer(res, await this.importsService.submit(user.id, type, { file: file?.buffer, filename: file?.originalname, fields }, userIntent(intent)));
  }

  /** Tachi's direct-manual route: the batch-manual document as the JSON body, for score hooks. Also served at /ir/direct-manual/import. */
  @Post('ir/direct-manual/import')
  @ApiErrors(409)
  @HttpCode(200)
  @RequirePermissions('submit_score')
  @ApiImportResponses()
  async directManual(
    @CurrentUser() user: UserRow,
    @Body() body: unknown,
    @Headers('x-user-intent') intent: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ImportDocument | QueuedImportResponse> {
    return this.answer(res, await this.importsService.submit(user.id, DIRECT_MANUAL, { body, fields: {} }, userIntent(intent)));
  }

  @Post('import/orphans')
  @ApiErrors(409)
  @HttpCode(200)
  @RequirePermissions('submit_score')
  @ApiOkResponse({ type: OrphanRetryResponse })
  retryOrphans(@CurrentUser() user: UserRow): Promise<OrphanRetryResponse> {
    return this.orphans.retryForUser(user.id);
  }

  private answer(res: Response, result: SubmitResult): ImportDocument | QueuedImportResponse {
    if (result.kind === 'queued') {
      res.status(202);
      return { url: result.url, importID: result.importID };
    }
    if (this.config.API_PROFILE === 'tachi') {
      res.status(202);
      const { importID } = result.document;
      return { url: this.importsService.pollUrl(importID), importID };
    }
    return result.document;
  }
}
