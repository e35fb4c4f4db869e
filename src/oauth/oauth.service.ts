import { BadRequestException, Injectable, UnauthorizedException } from '@nestjs/common';
import { newApiToken, whileClientExists } from '../api-keys/api-keys.service.js';
import { toApiKeyDocument } from '../presenters/api-key.presenter.js';
import { clientSecretMatches, ClientsService } from '../clients/clients.service.js';
import { randomHex, sha256Hex } from '../common/crypto.js';
import { OAuthCodesRepository, type CodeRefusal } from '../repositories/oauth-codes.repository.js';
import type { ApiKeyDocument } from '../presenters/api-key.presenter.js';
import type { TokenRequestDto } from './dto/oauth.dto.js';
import type { OAuthCodeResponse } from './dto/oauth.responses.js';

export const OAUTH_CODE_LIFETIME_MS = 30 * 60 * 1000;

const REFUSALS: Record<CodeRefusal, string> = {
  unknown: 'This code is invalid or has already been used.',
  expired: 'This code has expired: codes are valid for 30 minutes.',
  'other-client': 'This code was created for a different client.',
  'verifier-missing': 'This code was authorized with a PKCE code_challenge: send its code_verifier.',
  'verifier-wrong': 'code_verifier does not match the code_challenge of the authorization.',
  'verifier-unexpected': 'This code was authorized without a PKCE code_challenge, so code_verifier must not be sent.',
  replayed: 'This code is invalid or has already been used; the API key it was exchanged for has been revoked, since the code has leaked.',
};

@Injectable()
export class OAuthService {
  constructor(
    private readonly codes: OAuthCodesRepository,
    private readonly clients: ClientsService,
  ) {}

  /**
   * A code for the user. `clientID` binds it to that client (the authorization page always
   * binds); `codeChallenge` is the S256 PKCE challenge the token request must answer.
   */
  async createCode(userID: number, clientID: string | undefined, codeChallenge: string | null = null): Promise<OAuthCodeResponse> {
    if (clientID !== undefined) await this.clients.find(clientID);
    const code = randomHex(20);
    const createdOn = Date.now();
    // The client may be deleted between the check and the insert.
    await whileClientExists(clientID ?? null, () =>
      this.codes.insert({
        codeHash: sha256Hex(code),
        userID,
        clientID: clientID ?? null,
        createdOn,
        expiresAt: createdOn + OAUTH_CODE_LIFETIME_MS,
        codeChallenge,
      }),
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
    if (!clientSecretMatches(client, dto.client_secret)) throw new UnauthorizedException('Invalid client secret.');
    if (client.redirectUri === null) throw new BadRequestException('This client has no redirectUri registered, so it cannot use the OAuth2 flow.');
    if (client.redirectUri !== dto.redirect_uri) throw new BadRequestException('redirect_uri does not match the redirectUri registered for this client.');

    const { token, tokenHash } = newApiToken();
    const key = { tokenHash, identifier: `${client.name} Token`, permissions: client.requestedPermissions, fromAPIClient: client.clientID };
    const exchanged = await whileClientExists(client.clientID, () => this.codes.exchangeForKey(sha256Hex(dto.code), dto.code_verifier, key));
    if ('refused' in exchanged) {
      // RFC 6749 10.5: a code used twice has leaked; the key issued for it goes too.
      if (exchanged.refused === 'replayed') await this.codes.revokeReplayed(sha256Hex(dto.code));
      throw new BadRequestException(REFUSALS[exchanged.refused]);
    }
    return toApiKeyDocument(exchanged.row, token);
  }
}
