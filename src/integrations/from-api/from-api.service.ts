import { BadRequestException, ConflictException, HttpException, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { AppConfig, type IntegrationServiceName } from '../../config/app-config.js';
import type { Tx } from '../../database/database.js';
import { findImportType } from '../../imports/import-types/registry.js';
import { ImportsService, type FetchedInput, type SubmitResult } from '../../imports/imports.service.js';
import { IntegrationCredentialsRepository } from '../../repositories/integration-credentials.repository.js';
import { SERVER_VERSION } from '../../status/version.js';
import { IntegrationLinksService, SERVICE_NAMES } from '../links.service.js';
import { FromApiError, type FromApiSource } from './source.js';
import { FROM_API_SOURCES } from '../sources.js';

/** The User-Agent a sync sends. */
export const FROM_API_USER_AGENT = `ScoreTracker/${SERVER_VERSION}`;

/** The `api/` import types this deployment serves: those whose service is configured and whose import type is registered. */
export function enabledApiImportTypes(config: AppConfig): string[] {
  return FROM_API_SOURCES.filter((s) => config.integrationConfig(s.service as IntegrationServiceName) && findImportType(s.importType)).map((s) => s.importType);
}

/**
 * POST /import/from-api: checks the type and the player's link, then submits an import whose fetch
 * step (registered with ImportsService) runs where the import runs: it decrypts the player's
 * credentials, runs the source under the sync's deadline, and hands back the plays as the import's
 * input, with the cursor to store in the import's own transaction.
 */
@Injectable()
export class FromApiService implements OnModuleInit {
  private readonly logger = new Logger(FromApiService.name);

  constructor(
    private readonly imports: ImportsService,
    private readonly links: IntegrationLinksService,
    private readonly syncState: IntegrationCredentialsRepository,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.imports.registerFetcher({
      handles: (importType) => importType.startsWith('api/'),
      fetch: (userID, importType, importID) => this.fetch(userID, importType, importID),
    });
  }

  enabledTypes(): string[] {
    return enabledApiImportTypes(this.config);
  }

  async submit(userID: number, importType: string, userIntent: boolean): Promise<SubmitResult> {
    const enabled = this.enabledTypes();
    if (!enabled.includes(importType))
      throw new BadRequestException(
        `Unknown or disabled importType '${importType.slice(0, 100)}'. ${enabled.length ? `Enabled api import types: ${enabled.join(', ')}.` : 'No api import type is enabled on this server.'}`,
      );
    const source = this.sourceOf(importType);
    if (!(await this.links.status(userID, source.service)).authStatus)
      throw new ConflictException(`Link your ${SERVICE_NAMES[source.service]} account first (/users/${userID}/integrations/…), then sync again.`);
    return this.imports.submitFetched(userID, findImportType(importType)!, userIntent);
  }

  private sourceOf(importType: string): FromApiSource {
    const source = FROM_API_SOURCES.find((s) => s.importType === importType);
    if (!source) throw new BadRequestException(`Unknown api import type '${importType.slice(0, 100)}'.`);
    return source;
  }

  /** The fetch step: the source's fetch under the deadline; FromApiErrors become the import's failure (status and message). */
  private async fetch(userID: number, importType: string, importID: string): Promise<FetchedInput> {
    const source = this.sourceOf(importType);
    const name = SERVICE_NAMES[source.service];
    const config = this.config.integrationConfig(source.service as IntegrationServiceName);
    if (!config) throw new BadRequestException(`${name} is no longer configured on this server.`);
    const credentials = await this.links.credentials(userID, source.service);
    if (credentials === null) throw new ConflictException(`Your ${name} account is not linked (it was unlinked after this sync was queued).`);
    const cursor = await this.syncState.cursor(userID, importType);
    const deadline = AbortSignal.timeout(this.config.FROM_API_SYNC_DEADLINE_MS);
    let result;
    try {
      result = await source.fetch({
        userID,
        credentials,
        saveCredentials: (next) => this.links.saveCredentials(userID, source.service, next),
        config,
        cursor,
        signal: deadline,
        requestTimeoutMs: this.config.FROM_API_REQUEST_TIMEOUT_MS,
        userAgent: FROM_API_USER_AGENT,
      });
    } catch (err) {
      if (err instanceof FromApiError) throw new HttpException(err.message, err.status);
      if (err instanceof HttpException) throw err;
      if (deadline.aborted) throw new HttpException(`The sync with ${name} took longer than allowed and was stopped; nothing was saved.`, 504);
      // Never the error's text: it may carry a URL with a key. Its class only.
      this.logger.error(`Sync ${importID} (${importType}) failed: ${(err as Error)?.name ?? 'error'}`);
      throw new HttpException(`The sync with ${name} failed unexpectedly; nothing was saved. Try again later.`, 502);
    }
    return {
      input: { items: result.items, ...(result.classes ? { classes: result.classes } : {}) },
      ...(result.emptyReason ? { emptyReason: result.emptyReason } : {}),
      afterWrite: (tx: Tx) => this.syncState.saveCursor(tx, userID, importType, importID, result.cursor),
    };
  }
}
