import { Body, Controller, Headers, HttpCode, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiHeader, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentUser, RequirePermissions } from '../../http/auth/access.decorators.js';
import type { UserRow } from '../../http/auth/auth-context.js';
import { RawResponse } from '../../http/response-shapes.js';
import { FervidexService } from './fervidex.service.js';
import { FervidexImportResponse, FervidexMessageResponse } from './responses.js';

/** Fervidex's three routes check the card (X-Account-Id) against the user's filter when one is set. */
const ACCOUNT_HEADER = ApiHeader({
  name: 'X-Account-Id',
  required: false,
  description: "The card played on: checked against the user's Fervidex card filter, when set.",
});

/**
 * Fervidex's three routes (Tachi's `/ir/fervidex/…`, also under /api/v1). Each checks the
 * User-Agent and X-Software-Model headers, then the card filter of the user's Fervidex settings;
 * every error is `{success: false, error}`, except a missing permission or a banned account (403),
 * which say `description`.
 */
@ApiTags('ir')
@Controller('ir/fervidex')
@RawResponse()
export class FervidexController {
  constructor(private readonly fervidex: FervidexService) {}

  /** One play, imported before the answer. A play sent again (a retry, or to highlight it) is the same score, not a new one. */
  @Post('score/submit')
  @HttpCode(200)
  @RequirePermissions('submit_score')
  @ACCOUNT_HEADER
  @ApiOkResponse({ type: FervidexImportResponse })
  score(
    @CurrentUser() user: UserRow,
    @Body() body: unknown,
    @Headers('user-agent') userAgent: string | undefined,
    @Headers('x-software-model') softwareModel: string | undefined,
    @Headers('x-account-id') accountID: string | undefined,
  ): Promise<FervidexImportResponse> {
    return this.fervidex.score(user.id, { userAgent, softwareModel, accountID }, body);
  }

  /**
   * A profile dump: one import of its SP and DP scores and dans, queued in queue mode (run now
   * otherwise). Answers 202 once it is queued or done; a malformed dump is a 400. An arcade dump's
   * scores are imported only when the user's forceStaticImport is set, which this uses up.
   */
  @Post('profile/submit')
  @HttpCode(202)
  @RequirePermissions('submit_score')
  @ACCOUNT_HEADER
  @ApiAcceptedResponse({ type: FervidexMessageResponse })
  profile(
    @CurrentUser() user: UserRow,
    @Body() body: unknown,
    @Headers('user-agent') userAgent: string | undefined,
    @Headers('x-software-model') softwareModel: string | undefined,
    @Headers('x-account-id') accountID: string | undefined,
  ): Promise<FervidexMessageResponse> {
    return this.fervidex.profile(user.id, { userAgent, softwareModel, accountID }, body);
  }

  /** A cleared dan course raises the dan of that playtype, creating the profile if need be; recorded as a class-only import. */
  @Post('class/submit')
  @HttpCode(200)
  @RequirePermissions('submit_score')
  @ACCOUNT_HEADER
  @ApiOkResponse({ type: FervidexMessageResponse })
  classClear(
    @CurrentUser() user: UserRow,
    @Body() body: unknown,
    @Headers('user-agent') userAgent: string | undefined,
    @Headers('x-software-model') softwareModel: string | undefined,
    @Headers('x-account-id') accountID: string | undefined,
  ): Promise<FervidexMessageResponse> {
    return this.fervidex.classClear(user.id, { userAgent, softwareModel, accountID }, body);
  }
}
