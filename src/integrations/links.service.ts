import { ConflictException, Injectable, NotFoundException, ServiceUnavailableException } from '@nestjs/common';
import { AppConfig, type IntegrationServiceName } from '../config/app-config.js';
import { API_IMPORT_TYPES } from '../imports/import-types/registry.js';
import { IntegrationCredentialsRepository, integrationCredentialsContext } from '../repositories/integration-credentials.repository.js';
import { SecretsService } from '../secrets/secrets.service.js';
import type { IntegrationLinkDocument } from './dto/links.dto.js';
import type { IntegrationService } from './from-api/source.js';

/** Each service's display name. */
export const SERVICE_NAMES: Readonly<Record<IntegrationService, string>> = {
  flo: 'FLO',
  eag: 'EAG',
  min: 'MIN',
  'cg-dev': 'CG Dev',
  'cg-nag': 'CG NAG',
  'cg-gan': 'CG GAN',
  myt: 'MYT',
};

/** The api/ import types of a service ("api/flo-iidx", … for flo). */
export const importTypesOf = (service: IntegrationService) => API_IMPORT_TYPES.filter((t) => t.startsWith(`api/${service}-`));

/**
 * The players' links to other services: credentials encrypted with SecretsService (bound to the
 * user and service), never returned; facts that are not secret (a CG card id) are kept beside them.
 */
@Injectable()
export class IntegrationLinksService {
  constructor(
    private readonly repository: IntegrationCredentialsRepository,
    private readonly secrets: SecretsService,
    private readonly config: AppConfig,
  ) {}

  /** 404 when this deployment has not configured the service (nothing to link to). */
  assertConfigured(service: IntegrationService): void {
    if (!this.config.integrationConfig(service as IntegrationServiceName))
      throw new NotFoundException(`${SERVICE_NAMES[service]} is not available on this server: it is not configured.`);
  }

  async status(userID: number, service: IntegrationService): Promise<IntegrationLinkDocument> {
    const row = await this.repository.find(userID, service);
    return { service, authStatus: !!row, linkedAt: row?.linkedAt ?? null, ...(row ? (row.facts as { cardID?: string }) : {}) };
  }

  async link(userID: number, service: IntegrationService, credentials: unknown, facts: Record<string, unknown> = {}): Promise<IntegrationLinkDocument> {
    if (!this.secrets.available) throw new ServiceUnavailableException('This server cannot store credentials: SECRETS_KEY is not configured.');
    const encrypted = this.secrets.encrypt(JSON.stringify(credentials), integrationCredentialsContext(userID, service));
    const row = await this.repository.save(userID, service, encrypted, facts);
    return { service, authStatus: true, linkedAt: row.linkedAt, ...(facts as { cardID?: string }) };
  }

  /** Removes the link and its sync state; 409 when it was not linked. */
  async unlink(userID: number, service: IntegrationService): Promise<void> {
    if (!(await this.repository.remove(userID, service, importTypesOf(service))))
      throw new ConflictException(`You have not linked ${SERVICE_NAMES[service]}: there is nothing to unlink.`);
  }

  /** The decrypted credentials, or null when not linked. */
  async credentials<T>(userID: number, service: IntegrationService): Promise<T | null> {
    const row = await this.repository.find(userID, service);
    if (!row) return null;
    return JSON.parse(this.secrets.decrypt(row.credentialsEncrypted, integrationCredentialsContext(userID, service))) as T;
  }

  /** Stores changed credentials at once (KAI's refreshed tokens); a link removed meanwhile stays removed. */
  async saveCredentials(userID: number, service: IntegrationService, credentials: unknown): Promise<void> {
    await this.repository.replaceCredentials(
      userID,
      service,
      this.secrets.encrypt(JSON.stringify(credentials), integrationCredentialsContext(userID, service)),
    );
  }
}
