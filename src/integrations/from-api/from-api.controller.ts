import { Body, Controller, Headers, HttpCode, Post, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { AppConfig } from '../../config/app-config.js';
import { CurrentUser, RequirePermissions } from '../../http/auth/access.decorators.js';
import type { UserRow } from '../../http/auth/auth-context.js';
import { Description } from '../../http/envelope.js';
import { ApiErrors } from '../../http/openapi-errors.js';
import { QueuedImportResponse } from '../../imports/dto/import.responses.js';
import { ImportsService } from '../../imports/imports.service.js';
import { ImportDocument } from '../../presenters/import.presenter.js';
import { FromApiImportDto } from '../dto/links.dto.js';
import { FromApiService } from './from-api.service.js';

@ApiTags('import')
@Controller()
export class FromApiController {
  constructor(
    private readonly fromApiService: FromApiService,
    private readonly imports: ImportsService,
    private readonly config: AppConfig,
  ) {}

  @Post('import/from-api')
  @HttpCode(200)
  @RequirePermissions('submit_score')
  @ApiErrors(409, 502, 504)
  @ApiOperation({
    summary:
      "Syncs the player's plays from a linked service (an enabled api/ import type): only what is new since the last successful sync where the service allows it. Inline or queued as file imports.",
  })
  @ApiOkResponse({ type: ImportDocument, description: 'Imported in the request.' })
  @ApiAcceptedResponse({ type: QueuedImportResponse, description: 'Queued for an import worker (under API_PROFILE=tachi: every import): poll url.' })
  @Description('Import loaded into queue. You can poll the provided URL for information on when it is complete.')
  async fromApi(
    @CurrentUser() user: UserRow,
    @Body() dto: FromApiImportDto,
    @Headers('x-user-intent') intent: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ImportDocument | QueuedImportResponse> {
    const result = await this.fromApiService.submit(user.id, dto.importType, intent?.trim().toLowerCase() === 'true');
    if (result.kind === 'queued') {
      res.status(202);
      return { url: result.url, importID: result.importID };
    }
    if (this.config.API_PROFILE === 'tachi') {
      res.status(202);
      return { url: this.imports.pollUrl(result.document.importID), importID: result.document.importID };
    }
    return result.document;
  }
}
