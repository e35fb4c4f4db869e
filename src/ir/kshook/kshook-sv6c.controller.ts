import { Body, Controller, Headers, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentUser, RequirePermissions } from '../../http/auth/access.decorators.js';
import type { UserRow } from '../../http/auth/auth-context.js';
import { RawResponse } from '../../http/response-shapes.js';
import { ImportsService } from '../../imports/imports.service.js';
import { assertKshookHeaders, KshookImportResponse } from './kshook.http.js';
import { irKshookSv6c } from '../../imports/import-types/kshook-sv6c/kshook-sv6c.type.js';

@ApiTags('ir')
@Controller('ir/kshook/sv6c')
@RawResponse()
export class KshookSv6cController {
  constructor(private readonly imports: ImportsService) {}

  /** One Konaste score. Unlike Tachi, the token needs submit_score. */
  @Post('score/save')
  @HttpCode(200)
  @RequirePermissions('submit_score')
  @ApiOkResponse({ type: KshookImportResponse })
  async save(
    @CurrentUser() user: UserRow,
    @Body() body: unknown,
    @Headers('user-agent') userAgent: string | undefined,
    @Headers('x-software-model') softwareModel: string | undefined,
  ): Promise<KshookImportResponse> {
    assertKshookHeaders(userAgent, softwareModel);
    const result = await this.imports.submit(user.id, irKshookSv6c, { body, fields: {} }, false, { inline: true });
    if (result.kind !== 'completed') throw new Error('Hook imports run inline.');
    return { success: true, description: 'Import successful.', body: result.document };
  }
}
