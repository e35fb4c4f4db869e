import { Body, Controller, Headers, HttpCode, Post } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { CurrentUser, RequirePermissions } from '../../http/auth/access.decorators.js';
import type { UserRow } from '../../http/auth/auth-context.js';
import { RawResponse } from '../../http/response-shapes.js';
import { ImportsService } from '../../imports/imports.service.js';
import { IntegrationSettingsRepository } from '../../repositories/integration-settings.repository.js';
import { assertKshookHeaders, KshookIgnoredResponse, KshookImportResponse } from './kshook.http.js';
import { irKshookSv6cStatic } from '../../imports/import-types/kshook-sv6c-static/kshook-sv6c-static.type.js';

export const KSHOOK_STATIC_DISABLED = 'Static importing is disabled. Ignoring static import request.';

@ApiTags('ir')
@Controller('ir/kshook/sv6c')
@RawResponse()
@ApiExtraModels(KshookImportResponse, KshookIgnoredResponse)
export class KshookSv6cStaticController {
  constructor(
    private readonly imports: ImportsService,
    private readonly settings: IntegrationSettingsRepository,
  ) {}

  /**
   * The player's whole Konaste profile of best scores, which kshook sends often: imported only when
   * the player has set forceStaticImport (PATCH /users/{userID}/integrations/kshook-sv6c/settings),
   * which this uses up, as in Tachi. Re-sending it imports only what is new.
   */
  @Post('score/export')
  @HttpCode(200)
  @RequirePermissions('submit_score')
  @ApiOkResponse({
    description: 'The import, or, with forceStaticImport off, a note that nothing was imported.',
    schema: { oneOf: [{ $ref: getSchemaPath(KshookImportResponse) }, { $ref: getSchemaPath(KshookIgnoredResponse) }] },
  })
  async exportProfile(
    @CurrentUser() user: UserRow,
    @Body() body: unknown,
    @Headers('user-agent') userAgent: string | undefined,
    @Headers('x-software-model') softwareModel: string | undefined,
  ): Promise<KshookImportResponse | KshookIgnoredResponse> {
    assertKshookHeaders(userAgent, softwareModel);
    if (!(await this.settings.takeKshookSv6cForceStaticImport(user.id))) return { success: true, description: KSHOOK_STATIC_DISABLED, body: {} };
    let result;
    try {
      result = await this.imports.submit(user.id, irKshookSv6cStatic, { body, fields: {} }, false, { inline: true });
    } catch (err) {
      // Not imported (a malformed export, an import already running): the setting is still wanted.
      await this.settings.saveKshookSv6c(user.id, { forceStaticImport: true });
      throw err;
    }
    if (result.kind !== 'completed') throw new Error('Hook imports run inline.');
    return { success: true, description: 'Import successful.', body: result.document };
  }
}
