import { Body, Controller, Headers, HttpCode, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiHeader, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { z } from 'zod';
import { CurrentUser, RequirePermissions } from '../../../http/auth/access.decorators.js';
import type { UserRow } from '../../../http/auth/auth-context.js';
import { RawResponse } from '../../../http/response-shapes.js';
import type { ImportDocument } from '../../../presenters/import.presenter.js';
import { IntegrationSettingsRepository } from '../../../repositories/integration-settings.repository.js';
import { ImportRejectedError } from '../../import-errors.js';
import { ImportsService, type SubmitResult } from '../../imports.service.js';
import { checkHeaders, type FervidexHeaders, type GameBuild } from './headers.js';
import { FervidexImportResponse, FervidexMessageResponse } from './responses.js';
import { irFervidex } from './score.js';
import { rejectInvalid } from './schema-errors.js';
import { irFervidexStatic } from './static.js';

const CLASS_BODY = z.looseObject({
  cleared: z.boolean(),
  course_id: z.number().int().min(0).max(18),
  play_style: z.union([z.literal(0), z.literal(1)]),
});

const message = (description: string): FervidexMessageResponse => ({ success: true, description, body: {} });

function completed(result: SubmitResult): ImportDocument {
  if (result.kind !== 'completed') throw new Error('A Fervidex score or class import was queued although it runs inline.');
  return result.document;
}

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
  constructor(
    private readonly importsService: ImportsService,
    private readonly settings: IntegrationSettingsRepository,
  ) {}

  /** One play, imported before the answer. A play sent again (a retry, or to highlight it) is the same score, not a new one. */
  @Post('score/submit')
  @HttpCode(200)
  @RequirePermissions('submit_score')
  @ACCOUNT_HEADER
  @ApiOkResponse({ type: FervidexImportResponse })
  async score(
    @CurrentUser() user: UserRow,
    @Body() body: unknown,
    @Headers('user-agent') userAgent: string | undefined,
    @Headers('x-software-model') softwareModel: string | undefined,
    @Headers('x-account-id') accountID: string | undefined,
  ): Promise<FervidexImportResponse> {
    const { headers } = await this.checked(user.id, userAgent, softwareModel, accountID);
    const fields = { ...headers, receivedAt: Date.now() };
    const document = completed(await this.importsService.submit(user.id, irFervidex, { body, fields }, false, { inline: true }));
    return { success: true, description: 'Import successful.', body: document };
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
  async profile(
    @CurrentUser() user: UserRow,
    @Body() body: unknown,
    @Headers('user-agent') userAgent: string | undefined,
    @Headers('x-software-model') softwareModel: string | undefined,
    @Headers('x-account-id') accountID: string | undefined,
  ): Promise<FervidexMessageResponse> {
    const { headers, build } = await this.checked(user.id, userAgent, softwareModel, accountID);
    const forced = build.infinitas ? false : await this.settings.takeFervidexForceStaticImport(user.id);
    try {
      await this.importsService.submit(user.id, irFervidexStatic, { body, fields: { ...headers, forceStaticImport: forced } }, false);
    } catch (err) {
      // Not imported (a malformed dump, too many scores, an import already running): the setting is still wanted.
      if (forced) await this.settings.saveFervidex(user.id, { forceStaticImport: true });
      throw err;
    }
    return message('Your import has been loaded for further processing.');
  }

  /** A cleared dan course raises the dan of that playtype, creating the profile if need be; recorded as a class-only import. */
  @Post('class/submit')
  @HttpCode(200)
  @RequirePermissions('submit_score')
  @ACCOUNT_HEADER
  @ApiOkResponse({ type: FervidexMessageResponse })
  async classClear(
    @CurrentUser() user: UserRow,
    @Body() body: unknown,
    @Headers('user-agent') userAgent: string | undefined,
    @Headers('x-software-model') softwareModel: string | undefined,
    @Headers('x-account-id') accountID: string | undefined,
  ): Promise<FervidexMessageResponse> {
    const { headers } = await this.checked(user.id, userAgent, softwareModel, accountID);
    const parsed = CLASS_BODY.safeParse(body);
    if (!parsed.success) rejectInvalid('Invalid Fervidex Request?', parsed.error);
    if (!parsed.data.cleared) return message('No Update Made.');
    const playtype = parsed.data.play_style === 0 ? 'SP' : 'DP';
    const course = { playtype, index: parsed.data.course_id };
    const document = completed(await this.importsService.submit(user.id, irFervidexStatic, { fields: { ...headers, course } }, false, { inline: true }));
    const raised = document.classDeltas.some((d) => d.game === 'iidx' && d.playtype === playtype && d.set === 'dan');
    return message(raised ? 'Dan changed!' : 'Dan unchanged, was worse than your current dan.');
  }

  /**
   * The checks every route makes before reading its body, in Tachi's order: User-Agent, then
   * X-Software-Model, then the card: with a card filter set, X-Account-Id must name one of its cards.
   */
  private async checked(
    userID: number,
    userAgent: string | undefined,
    softwareModel: string | undefined,
    accountID: string | undefined,
  ): Promise<{ headers: FervidexHeaders; build: GameBuild }> {
    const headers: FervidexHeaders = { userAgent: userAgent ?? null, softwareModel: softwareModel ?? null };
    const build = checkHeaders(headers);
    const { cards } = await this.settings.fervidex(userID);
    if (cards?.length) {
      if (accountID === undefined || accountID === '')
        throw new ImportRejectedError('The X-Account-Id header is required: your Fervidex settings accept only the cards in your list of filters.');
      if (!cards.includes(accountID)) throw new ImportRejectedError(`The card ${accountID.slice(0, 64)} is not in your list of filters. Ignoring.`);
    }
    return { headers, build };
  }
}
