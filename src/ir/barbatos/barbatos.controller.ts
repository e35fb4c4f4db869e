import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import { CurrentUser, RequirePermissions } from '../../http/auth/access.decorators.js';
import type { UserRow } from '../../http/auth/auth-context.js';
import { RawResponse } from '../../http/response-shapes.js';
import { ImportDocument } from '../../presenters/import.presenter.js';
import { ImportsService } from '../../imports/imports.service.js';
import { irBarbatos } from '../../imports/import-types/barbatos/barbatos.type.js';

/** Tachi's import answer, which Barbatos reads. */
export class BarbatosImportResponse {
  @ApiProperty({ enum: [true] }) success!: true;
  @ApiProperty({ example: 'Import successful.' }) description!: string;
  @ApiProperty({ type: ImportDocument }) body!: ImportDocument;
}

@ApiTags('ir')
@Controller('ir/barbatos')
@RawResponse()
export class BarbatosController {
  constructor(private readonly imports: ImportsService) {}

  /** One SDVX score from Barbatos. A score whose chart is unknown is an orphan in body.errors, not an HTTP error. */
  @Post('score/submit')
  @HttpCode(200)
  @RequirePermissions('submit_score')
  @ApiOkResponse({ type: BarbatosImportResponse })
  async submit(@CurrentUser() user: UserRow, @Body() body: unknown): Promise<BarbatosImportResponse> {
    const result = await this.imports.submit(user.id, irBarbatos, { body, fields: {} }, false, { inline: true });
    if (result.kind !== 'completed') throw new Error('Hook imports run inline.');
    return { success: true, description: 'Import successful.', body: result.document };
  }
}
