import { BadRequestException, Injectable, NotFoundException, UnauthorizedException } from '@nestjs/common';
import { eq, lt } from 'drizzle-orm';
import { ApiKeysService, toApiKeyDocument } from '../api-keys/api-keys.service.js';
import { ClientsService } from '../clients/clients.service.js';
import { randomHex, safeEqual, sha256Hex } from '../common/crypto.js';
import { FOREIGN_KEY_VIOLATION, sqlState } from '../common/sql-state.js';
import { Database } from '../database/database.js';
import { oauthCodes } from '../database/schema.js';
import type { ApiKeyDocument } from '../api-keys/dto/api-key.responses.js';
import type { TokenRequestDto } from './dto/oauth.dto.js';
import type { OAuthCodeResponse } from './dto/oauth.responses.js';

export const OAUTH_CODE_LIFETIME_MS = 30 * 60 * 1000;

@Injectable()
export class OAuthService {
  constructor(
    private readonly database: Database,
    private readonly clients: ClientsService,
    private readonly keys: ApiKeysService,
  ) {}

  /** Issues a code, and deletes every expired one (they are never exchanged, so nothing else would). */
  async createCode(userID: number, clientID: string | undefined): Promise<OAuthCodeResponse> {
    if (clientID !== undefined) await this.clients.find(clientID);
    const code = randomHex(20);
    const createdOn = Date.now();
    await this.database.db.delete(oauthCodes).where(lt(oauthCodes.expiresAt, createdOn));
    try {
      await this.database.db.insert(oauthCodes).values({ codeHash: sha256Hex(code), userID, clientID: clientID ?? null, createdOn, expiresAt: createdOn + OAUTH_CODE_LIFETIME_MS });
    } catch (err) {
      // The client was deleted between the check and the insert.
      if (clientID !== undefined && sqlState(err) === FOREIGN_KEY_VIOLATION) throw new NotFoundException(`The client ${clientID} does not exist.`);
      throw err;
    }
    return { code, userID, createdOn };
  }

  /**
   * Exchanges an intermediate code for an API key. The client is authenticated before the code
   * is touched, so a wrong secret never burns a user's code; the code is consumed and the key
   * issued in one transaction.
   */
  async exchange(dto: TokenRequestDto): Promise<ApiKeyDocument> {
    const client = await this.clients.find(dto.client_id);
    if (!safeEqual(client.clientSecret, dto.client_secret)) throw new UnauthorizedException('Invalid client secret.');
    if (client.redirectUri === null) throw new BadRequestException('This client has no redirectUri registered, so it cannot use the OAuth2 flow.');
    if (client.redirectUri !== dto.redirect_uri) throw new BadRequestException('redirect_uri does not match the redirectUri registered for this client.');

    return this.database.transaction(async (tx) => {
      const [code] = await tx.delete(oauthCodes).where(eq(oauthCodes.codeHash, sha256Hex(dto.code))).returning();
      if (!code) throw new BadRequestException('This code is invalid or has already been used.');
      if (code.expiresAt < Date.now()) throw new BadRequestException('This code has expired: codes are valid for 30 minutes.');
      if (code.clientID !== null && code.clientID !== client.clientID) throw new BadRequestException('This code was created for a different client.');
      const { row, token } = await this.keys.issue(
        { userID: code.userID, identifier: `${client.name} Token`, permissions: client.requestedPermissions, fromAPIClient: client.clientID },
        tx,
      );
      return toApiKeyDocument(row, token);
    });
  }
}
