import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import type { ImportDocument } from '../../presenters/import.presenter.js';
import { IntegrationSettingsRepository } from '../../repositories/integration-settings.repository.js';
import { ImportRejectedError } from '../../imports/import-errors.js';
import { ImportsService, type SubmitResult } from '../../imports/imports.service.js';
import { checkHeaders, type FervidexHeaders, type GameBuild } from '../../imports/import-types/fervidex/headers.js';
import type { FervidexImportResponse, FervidexMessageResponse } from './responses.js';
import { irFervidex } from '../../imports/import-types/fervidex/score.js';
import { rejectInvalid } from '../../imports/import-types/fervidex/schema-errors.js';
import { irFervidexStatic } from '../../imports/import-types/fervidex/static.js';

/** What a Fervidex request says about itself: its User-Agent, X-Software-Model and X-Account-Id headers. */
export interface FervidexRequestHeaders {
  userAgent: string | undefined;
  softwareModel: string | undefined;
  accountID: string | undefined;
}

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

/**
 * What Fervidex's three routes do. Each first checks the User-Agent and X-Software-Model headers,
 * then the card filter of the user's Fervidex settings.
 */
@Injectable()
export class FervidexService {
  constructor(
    private readonly importsService: ImportsService,
    private readonly settings: IntegrationSettingsRepository,
  ) {}

  /** One play, imported before the answer. A play sent again (a retry, or to highlight it) is the same score, not a new one. */
  async score(userID: number, request: FervidexRequestHeaders, body: unknown): Promise<FervidexImportResponse> {
    const { headers } = await this.checked(userID, request);
    const fields = { ...headers, receivedAt: Date.now() };
    const document = completed(await this.importsService.submit(userID, irFervidex, { body, fields }, false, { inline: true }));
    return { success: true, description: 'Import successful.', body: document };
  }

  /**
   * A profile dump: one import of its SP and DP scores and dans, queued in queue mode (run now
   * otherwise). An arcade dump's scores are imported only when the user's forceStaticImport is
   * set, which this uses up.
   */
  async profile(userID: number, request: FervidexRequestHeaders, body: unknown): Promise<FervidexMessageResponse> {
    const { headers, build } = await this.checked(userID, request);
    const forced = build.infinitas ? false : await this.settings.takeFervidexForceStaticImport(userID);
    try {
      await this.importsService.submit(userID, irFervidexStatic, { body, fields: { ...headers, forceStaticImport: forced } }, false);
    } catch (err) {
      // Not imported (a malformed dump, too many scores, an import already running): the setting is still wanted.
      if (forced) await this.settings.saveFervidex(userID, { forceStaticImport: true });
      throw err;
    }
    return message('Your import has been loaded for further processing.');
  }

  /** A cleared dan course raises the dan of that playtype, creating the profile if need be; recorded as a class-only import. */
  async classClear(userID: number, request: FervidexRequestHeaders, body: unknown): Promise<FervidexMessageResponse> {
    const { headers } = await this.checked(userID, request);
    const parsed = CLASS_BODY.safeParse(body);
    if (!parsed.success) rejectInvalid('Invalid Fervidex Request?', parsed.error);
    if (!parsed.data.cleared) return message('No Update Made.');
    const playtype = parsed.data.play_style === 0 ? 'SP' : 'DP';
    const course = { playtype, index: parsed.data.course_id };
    const document = completed(await this.importsService.submit(userID, irFervidexStatic, { fields: { ...headers, course } }, false, { inline: true }));
    const raised = document.classDeltas.some((d) => d.game === 'iidx' && d.playtype === playtype && d.set === 'dan');
    return message(raised ? 'Dan changed!' : 'Dan unchanged, was worse than your current dan.');
  }

  /**
   * The checks every route makes before reading its body, in Tachi's order: User-Agent, then
   * X-Software-Model, then the card: with a card filter set, X-Account-Id must name one of its cards.
   */
  private async checked(
    userID: number,
    { userAgent, softwareModel, accountID }: FervidexRequestHeaders,
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
