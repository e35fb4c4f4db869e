import { PrimaryRead } from '../http/read-routing/primary-read.js';
import { Controller, ForbiddenException, Get, HttpCode, HttpException, NotFoundException, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Auth, RequirePermissions } from '../http/auth/access.decorators.js';
import { isAdmin, type AuthContext } from '../http/auth/auth-context.js';
import { ApiEmptyObjectResponse, type EmptyObject } from '../http/empty-object.js';
import { ImportPollResponse, ImportWithRelatedResponse } from './dto/import.responses.js';
import { ImportReadService } from './import-read.service.js';
import { toImportDocument } from '../presenters/import.presenter.js';
import { ImportsService } from './imports.service.js';
import { RevertService } from './revert.service.js';
import { ApiErrors } from '../http/openapi-errors.js';

@ApiTags('imports')
// An import's answer and poll show what the worker wrote: from the primary, even with replicas.
@PrimaryRead()
@Controller('imports/:importID')
export class ImportsController {
  constructor(
    private readonly importsService: ImportsService,
    private readonly reads: ImportReadService,
    private readonly reverts: RevertService,
  ) {}

  @Get()
  @ApiOkResponse({ type: ImportWithRelatedResponse })
  async get(@Param('importID') importID: string): Promise<ImportWithRelatedResponse> {
    const row = await this.importsService.findOrThrow(importID);
    if (row.status !== 'completed')
      throw new NotFoundException(`The import ${importID} has no ImportDocument: it is ${row.status}. Poll /imports/${importID}/poll-status.`);
    return this.reads.withRelated(row);
  }

  /** {importStatus:'ongoing', progress} while queued or running; {importStatus:'completed', import} when done; a failed import answers with its error. */
  @Get('poll-status')
  @ApiOkResponse({ type: ImportPollResponse })
  async poll(@Param('importID') importID: string): Promise<ImportPollResponse> {
    const row = await this.importsService.findOrThrow(importID);
    if (row.status === 'completed') return { importStatus: 'completed', import: toImportDocument(row) };
    if (row.status === 'failed') throw new HttpException(row.failure?.message ?? 'This import failed.', row.failure?.statusCode ?? 500);
    return { importStatus: 'ongoing', progress: { description: row.progress ?? 'Starting up import.' } };
  }

  @Post('revert')
  @ApiErrors(409)
  @HttpCode(200)
  @RequirePermissions('delete_score')
  @ApiEmptyObjectResponse()
  async revert(@Auth() auth: AuthContext, @Param('importID') importID: string): Promise<EmptyObject> {
    const row = await this.importsService.findOrThrow(importID);
    if (row.userID !== auth.user?.id && !isAdmin(auth)) throw new ForbiddenException('You can only revert your own imports.');
    await this.reverts.revertImport(row);
    return {};
  }
}
