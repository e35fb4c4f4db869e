import { Body, Controller, Headers, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentUser, RequirePermissions } from '../../http/auth/access.decorators.js';
import type { UserRow } from '../../http/auth/auth-context.js';
import { RawResponse } from '../../http/response-shapes.js';
import { ImportsService } from '../../imports/imports.service.js';
import { assertKshookHeaders, KshookImportResponse } from './kshook.http.js';
import { irKshookSv6cStatic } from '../../imports/import-types/kshook-sv6c-static/kshook-sv6c-static.type.js';

@ApiTags('ir')
@Controller('ir/kshook/sv6c')
@RawResponse()
export class KshookSv6cStaticController {
  constructor(private readonly imports: ImportsService) {}

  /** The player's whole Konaste profile of best scores. Re-sending it imports only what is new. */
  @Post('score/export')
  @HttpCode(200)
  @RequirePermissions('submit_score')
  @ApiOkResponse({ type: KshookImportResponse })
  async exportProfile(
    @CurrentUser() user: UserRow,
    @Body() body: unknown,
    @Headers('user-agent') userAgent: string | undefined,
    @Headers('x-software-model') softwareModel: string | undefined,
  ): Promise<KshookImportResponse> {
    assertKshookHeaders(userAgent, softwareModel);
    const result = await this.imports.submit(user.id, irKshookSv6cStatic, { body, fields: {} }, false, { inline: true });
    if (result.kind !== 'completed') throw new Error('Hook imports run inline.');
    return { success: true, description: 'Import successful.', body: result.document };
  }
}
