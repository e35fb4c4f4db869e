import { BadRequestException, Injectable, UnauthorizedException } from '@nestjs/common';
import { newApiToken, whileClientExists } from '../api-keys/api-keys.service.js';
import { toApiKeyDocument } from '../presenters/api-key.presenter.js';
import { ClientsService } from '../clients/clients.service.js';
import { randomHex, safeEqual, sha256Hex } from '../common/crypto.js';
import { OAuthCodesRepository, type CodeRefusal } from '../repositories/oauth-codes.repository.js';
import type { ApiKeyDocument } from '../presenters/api-key.presenter.js';
import type { TokenRequestDto } from './dto/oauth.dto.js';
import type { OAuthCodeResponse } from './dto/oauth.responses.js';

export const OAUTH_CODE_LIFETIME_MS = 30 * 60 * 1000;

const REFUSALS: Record<CodeRefusal, string> = {
  unknown: 'This code is invalid or has already been used.',
  expired: 'This code has expired: codes are valid for 30 minutes.',
  'other-client': 'This code was created for a different client.',
};

@Injectable()
export class OAuthService {
  constructor(
    private readonly codes: OAuthCodesRepository,
    private readonly clients: ClientsService,
  ) {}

  async createCode(userID: number, clientID: string | undefined): Promise<OAuthCodeResponse> {
    if (clientID !== undefined) await this.clients.find(clientID);
    const code = randomHex(20);
    const createdOn = Date.now();
    // The client may be deleted between the check and the insert.
    await whileClientExists(clientID ?? null, () =>
      this.codes.insert({ codeHash: sha256Hex(code), userID, clientID: clientID ?? null, createdOn, expiresAt: createdOn + OAUTH_CODE_LIFETIME_MS }),
    );
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

    const { token, tokenHash } = newApiToken();
    const key = { tokenHash, identifier: `${client.name} Token`, permissions: client.requestedPermissions, fromAPIClient: client.clientID };
    const exchanged = await whileClientExists(client.clientID, () => this.codes.exchangeForKey(sha256Hex(dto.code), key));
    if ('refused' in exchanged) throw new BadRequestException(REFUSALS[exchanged.refused]);
    return toApiKeyDocument(exchanged.row, token);
  }
}
