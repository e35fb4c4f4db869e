import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Auth } from '../http/auth/access.decorators.js';
import { isAdmin, type AuthContext } from '../http/auth/auth-context.js';
import { PrimaryRead } from '../http/read-routing/primary-read.js';
import { RawResponse } from '../http/response-shapes.js';
import { ImportInputsService } from './import-inputs.service.js';

/** Outside the API prefix (app.factory.ts excludes it): where Tachi's web client looks for an import's input. */
export const IMPORT_INPUT_ROUTE = 'cdn/score-import-input/:importID';

/**
 * GET /cdn/score-import-input/:importID: `[input]`, the JSON the import read, for its owner (session
 * or API token) and admins. Everything else is a plain-text 404, as Tachi's client shows it: anyone
 * else and unknown ids alike (no existence leak), and an input no longer kept.
 */
@ApiTags('imports')
@PrimaryRead()
@RawResponse()
@Controller()
export class ImportInputsController {
  constructor(private readonly inputs: ImportInputsService) {}

  @Get(IMPORT_INPUT_ROUTE)
  @ApiOperation({ summary: "A completed import's input, kept IMPORT_INPUT_RETENTION_DAYS days: for its owner and admins." })
  @ApiProduces('application/json', 'text/plain')
  @ApiOkResponse({ description: 'A one-element array: the JSON the import read.', schema: { type: 'array', minItems: 1, maxItems: 1, items: {} } })
  @ApiNotFoundResponse({
    description: 'Plain text: no such import, not yours, or its input is no longer kept (one answer for all three).',
    content: { 'text/plain': { schema: { type: 'string' } } },
  })
  async get(@Auth() auth: AuthContext, @Param('importID') importID: string, @Res() res: Response): Promise<void> {
    const found = await this.inputs.find(importID, auth.user?.id ?? null, isAdmin(auth));
    if (found.kind === 'input') {
      res.status(200).type('application/json').send(`[${found.input}]`);
      return;
    }
    res.status(404).type('text/plain').send(found.message);
  }
}
