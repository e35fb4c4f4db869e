import { Body, Controller, Headers, HttpCode, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { z } from 'zod';
import { AppConfig } from '../../../config/app-config.js';
import type { GptSupport } from '../../../game-support/types.js';
import { CurrentUser, RequirePermissions } from '../../../http/auth/access.decorators.js';
import type { UserRow } from '../../../http/auth/auth-context.js';
import { RawResponse } from '../../../http/response-shapes.js';
import type { ImportDocument } from '../../../presenters/import.presenter.js';
import { ChartMatchRepository } from '../../../repositories/chart-match.repository.js';
import { ScoreEditService } from '../../../scoring/score-edit.service.js';
import { computeScoreID } from '../../import-pipeline.js';
import { ImportsService, type SubmitResult } from '../../imports.service.js';
import { validateScoreElement } from '../../score-element.js';
import type { ImportRequest, ParsedImport } from '../types.js';
import { checkHeaders, type FervidexHeaders } from './headers.js';
import { FervidexImportResponse, FervidexMessageResponse } from './responses.js';
import { irFervidex, type CustomChart } from './score.js';
import { rejectInvalid } from './schema-errors.js';
import { irFervidexStatic } from './static.js';

const CLASS_BODY = z.looseObject({
  cleared: z.boolean(),
  course_id: z.number().int().min(0).max(18),
  play_style: z.union([z.literal(0), z.literal(1)]),
});

const SHA256 = /^[0-9a-f]{64}$/i;

const message = (description: string): FervidexMessageResponse => ({ success: true, description, body: {} });

function completed(result: SubmitResult): ImportDocument {
  if (result.kind !== 'completed') throw new Error('A Fervidex score or class import was queued although it runs inline.');
  return result.document;
}

/**
 * Fervidex's three routes (Tachi's `/ir/fervidex/…`, also under /api/v1). Each checks the
 * User-Agent and X-Software-Model headers first; every error is `{success: false, error}`, except
 * a missing permission or a banned account (403), which say `description`.
 */
@ApiTags('ir')
@Controller('ir/fervidex')
@RawResponse()
export class FervidexController {
  constructor(
    private readonly importsService: ImportsService,
    private readonly charts: ChartMatchRepository,
    private readonly scoreEdits: ScoreEditService,
    private readonly config: AppConfig,
  ) {}

  /** One play, imported before the answer. A play sent again (a retry, or to highlight it) is the same score, not a new one. */
  @Post('score/submit')
  @HttpCode(200)
  @RequirePermissions('submit_score')
  @ApiOkResponse({ type: FervidexImportResponse })
  async score(
    @CurrentUser() user: UserRow,
    @Body() body: unknown,
    @Headers('user-agent') userAgent: string | undefined,
    @Headers('x-software-model') softwareModel: string | undefined,
  ): Promise<FervidexImportResponse> {
    const headers: FervidexHeaders = { userAgent: userAgent ?? null, softwareModel: softwareModel ?? null };
    const request = (fields: Record<string, unknown>): ImportRequest => ({ body, fields: { ...headers, ...fields } });
    const fields: Record<string, unknown> = { receivedAt: Date.now() };
    // Headers and body are checked before anything is looked up.
    const parsed = irFervidex.parse(irFervidex.read(request(fields)), { maxScores: 1 });
    const item = parsed.items[0];
    if (item.body.custom && item.body.chart_sha256) fields.customChart = await this.customChart(parsed.gpt, parsed.context.version, item.body.chart_sha256);

    const document = completed(await this.importsService.submit(user.id, irFervidex, request(fields), false, { inline: true }));
    if (item.body.highlight) {
      const converted = irFervidex.convert({ ...item, customChart: fields.customChart as CustomChart | undefined }, parsed);
      const scoreID = document.scoreIDs[0] ?? (converted.kind === 'score' ? await this.storedScoreID(user.id, parsed, converted.element) : undefined);
      if (scoreID) await this.scoreEdits.annotate(scoreID, { highlighted: true });
    }
    return { success: true, description: 'Import successful.', body: document };
  }

  /**
   * A profile dump: one import per playtype it has scores or a dan for, queued in queue mode (run
   * now otherwise). Answers 202 once they are queued or done; a malformed dump is a 400.
   */
  @Post('profile/submit')
  @HttpCode(202)
  @RequirePermissions('submit_score')
  @ApiAcceptedResponse({ type: FervidexMessageResponse })
  async profile(
    @CurrentUser() user: UserRow,
    @Body() body: unknown,
    @Headers('user-agent') userAgent: string | undefined,
    @Headers('x-software-model') softwareModel: string | undefined,
  ): Promise<FervidexMessageResponse> {
    const headers: FervidexHeaders = { userAgent: userAgent ?? null, softwareModel: softwareModel ?? null };
    const requests = (['SP', 'DP'] as const).map((playtype): ImportRequest => ({ body, fields: { ...headers, playtype } }));
    // Both halves are checked before either is imported, so a bad dump imports nothing.
    const wanted = requests.filter((r) => {
      const parsed = irFervidexStatic.parse(irFervidexStatic.read(r), { maxScores: this.config.IMPORT_MAX_SCORES });
      return parsed.items.length > 0 || Object.keys(parsed.classes).length > 0;
    });
    for (const r of wanted) await this.importsService.submit(user.id, irFervidexStatic, r, false);
    return message('Your import has been loaded for further processing.');
  }

  /** A cleared dan course raises the dan of that playtype, as a class-only import of the profile type (recorded in its ImportDocument's classDeltas). */
  @Post('class/submit')
  @HttpCode(200)
  @RequirePermissions('submit_score')
  @ApiOkResponse({ type: FervidexMessageResponse })
  async classClear(
    @CurrentUser() user: UserRow,
    @Body() body: unknown,
    @Headers('user-agent') userAgent: string | undefined,
    @Headers('x-software-model') softwareModel: string | undefined,
  ): Promise<FervidexMessageResponse> {
    const headers: FervidexHeaders = { userAgent: userAgent ?? null, softwareModel: softwareModel ?? null };
    checkHeaders(headers);
    const parsed = CLASS_BODY.safeParse(body);
    if (!parsed.success) rejectInvalid('Invalid Fervidex Request?', parsed.error);
    if (!parsed.data.cleared) return message('No Update Made.');
    const playtype = parsed.data.play_style === 0 ? 'SP' : 'DP';
    const dump = { [playtype === 'SP' ? 'sp_dan' : 'dp_dan']: parsed.data.course_id, scores: {} };
    const document = completed(
      await this.importsService.submit(user.id, irFervidexStatic, { body: dump, fields: { ...headers, playtype } }, false, { inline: true }),
    );
    const raised = document.classDeltas.some((d) => d.game === 'iidx' && d.playtype === playtype && d.set === 'dan');
    return message(raised ? 'Dan changed!' : 'Dan unchanged, was worse than your current dan.');
  }

  /** The id a re-sent play's stored score has: its time is no part of it, so it is the new import's id. Undefined if the play has no chart. */
  private async storedScoreID(userID: number, parsed: ParsedImport, element: unknown): Promise<string | undefined> {
    const v = validateScoreElement(element, 0, parsed.gpt, Date.now());
    if (!v.ok) return undefined;
    const [match] = await this.charts.resolve(parsed.gpt, parsed.context.version, [v.candidate]);
    return match.kind === 'found' ? computeScoreID(userID, match.chart.chartID, v.candidate, parsed.gpt, irFervidex.timesIdentifyPlays !== false) : undefined;
  }

  /** A custom (2dxtra) chart by its SHA256, in any version, as the import will read it. */
  private async customChart(gpt: GptSupport, version: string | null, sha256: string): Promise<CustomChart> {
    if (!SHA256.test(sha256)) return { error: `chart_sha256 '${sha256.slice(0, 80)}' is not a SHA256 (64 hexadecimal characters).` };
    const [match] = await this.charts.resolve(gpt, version, [{ matchType: 'bmsChartHash', identifier: sha256.toLowerCase(), difficulty: null, artist: null }]);
    return match.kind === 'found' ? { songID: match.chart.songID, difficulty: match.chart.difficulty } : { error: match.message };
  }
}
