import { BadRequestException, ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { isAdmin, type AuthContext, type UserRow } from '../http/auth/auth-context.js';
import { randomHex, safeEqual, sha256Hex } from '../common/crypto.js';
import { ClientsRepository } from '../repositories/clients.repository.js';
import { WebhooksRepository } from '../repositories/webhooks.repository.js';
import { clientSecretContext, SecretsService } from '../secrets/secrets.service.js';
import type { CreateClientDto, PatchClientDto } from './dto/clients.dto.js';
import type { ClientRow, WebhookDeliveryRow } from '../database/schema.js';

const newSecret = () => `CS${randomHex(20)}`;
/** Signs the client's webhook deliveries (and is their bearer token). */
const newWebhookSecret = () => `WS${randomHex(20)}`;

/**
 * A client and its plain secret, which exists only in this answer: the database keeps its SHA-256
 * (which checks it) and a copy encrypted with SECRETS_KEY (which webhook deliveries send).
 */
export interface ClientWithSecret {
  row: ClientRow;
  secret: string;
}

/**
 * Whether `secret` is the client's: compares SHA-256 digests in constant time. Secrets are 160
 * random bits, so a fast hash is enough (no dictionary to guess from).
 */
export function clientSecretMatches(row: ClientRow, secret: string): boolean {
  return safeEqual(row.clientSecretHash, sha256Hex(secret));
}

/** The client was deleted between the ownership check and the update. */
function gone(clientID: string): never {
  throw new NotFoundException(`The client ${clientID} does not exist.`);
}

@Injectable()
export class ClientsService {
  constructor(
    private readonly clients: ClientsRepository,
    private readonly webhooks: WebhooksRepository,
    private readonly config: AppConfig,
    private readonly secrets: SecretsService,
  ) {}

  /**
   * The secret encrypted for the webhook deliveries' Authorization header; null when no key is
   * configured (DATABASE_URL without SECRETS_KEY, allowed only under API_PROFILE=spec, whose
   * deliveries do not send it).
   */
  private encryptedSecret(clientID: string, secret: string): string | null {
    return this.secrets.available ? this.secrets.encrypt(secret, clientSecretContext(clientID)) : null;
  }

  listOwned(userID: number): Promise<ClientRow[]> {
    return this.clients.listByAuthor(userID);
  }

  async find(clientID: string): Promise<ClientRow> {
    const row = await this.clients.findById(clientID);
    if (!row) throw new NotFoundException(`The client ${clientID} does not exist.`);
    return row;
  }

  /** Admins are not held to the cap on clients per user. */
  async create(auth: AuthContext & { user: UserRow }, dto: CreateClientDto): Promise<ClientWithSecret> {
    const secret = newSecret();
    const clientID = `CI${randomHex(20)}`;
    const row = await this.clients.insertUnderCap(
      {
        clientID,
        clientSecretHash: sha256Hex(secret),
        clientSecretEncrypted: this.encryptedSecret(clientID, secret),
        webhookSecret: newWebhookSecret(),
        name: dto.name,
        author: auth.user.id,
        requestedPermissions: dto.permissions,
        redirectUri: dto.redirectUri ?? null,
        webhookUri: dto.webhookUri ?? null,
        apiKeyFormat: dto.apiKeyFormat ?? null,
        apiKeyFilename: dto.apiKeyFilename ?? null,
      },
      isAdmin(auth) ? Infinity : this.config.OAUTH_CLIENT_CAP,
    );
    if (!row) throw new BadRequestException(`You have created too many API clients: the limit is ${this.config.OAUTH_CLIENT_CAP}. Delete one first.`);
    return { row, secret };
  }

  async patch(user: UserRow, clientID: string, dto: PatchClientDto): Promise<ClientRow> {
    await this.findOwned(user, clientID);
    const changes = Object.fromEntries(
      (['name', 'redirectUri', 'webhookUri', 'apiKeyFormat', 'apiKeyFilename'] as const).filter((k) => dto[k] !== undefined).map((k) => [k, dto[k]]),
    );
    if (Object.keys(changes).length === 0) throw new BadRequestException('No changes to make.');
    return (await this.clients.update(clientID, changes)) ?? gone(clientID);
  }

  /** Keys already issued stay valid: they are not tied to the secret. A client made before secrets were stored encrypted gets its encrypted copy here. */
  async resetSecret(user: UserRow, clientID: string): Promise<ClientWithSecret> {
    await this.findOwned(user, clientID);
    const secret = newSecret();
    const changes = { clientSecretHash: sha256Hex(secret), clientSecretEncrypted: this.encryptedSecret(clientID, secret) };
    return { row: (await this.clients.update(clientID, changes)) ?? gone(clientID), secret };
  }

  /** A new webhook signing secret; the old one stops signing at once (deliveries still to be attempted use the new one). */
  async resetWebhookSecret(user: UserRow, clientID: string): Promise<ClientRow> {
    await this.findOwned(user, clientID);
    return (await this.clients.update(clientID, { webhookSecret: newWebhookSecret() })) ?? gone(clientID);
  }

  /** The client's webhook deliveries, newest first, for its owner. */
  async deliveries(user: UserRow, clientID: string, limit: number, before?: number): Promise<WebhookDeliveryRow[]> {
    await this.findOwned(user, clientID);
    return this.webhooks.listForClient(clientID, limit, before);
  }

  /** The foreign keys cascade: every API key and OAuth code the client issued goes with it. */
  async delete(user: UserRow, clientID: string): Promise<void> {
    await this.findOwned(user, clientID);
    await this.clients.delete(clientID);
  }

  private async findOwned(user: UserRow, clientID: string): Promise<ClientRow> {
    const row = await this.find(clientID);
    if (row.author !== user.id) throw new ForbiddenException('You are not the owner of this client.');
    return row;
  }
}
