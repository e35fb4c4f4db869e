import { BadRequestException, Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { OwnerOnly, SelfKeyOnly, TargetUser } from '../http/auth/access.decorators.js';
import type { UserRow } from '../http/auth/auth-context.js';
import { ApiEmptyObjectResponse, type EmptyObject } from '../http/empty-object.js';
import { ParseIdPipe } from '../http/parse-id.pipe.js';
import { ClientsService } from '../clients/clients.service.js';
import { SERVICE_KEY_PLACEHOLDER } from '../clients/dto/clients.dto.js';
import { ApiKeyDocument, toApiKeyDocument, toIssuedApiKeyDocument } from '../presenters/api-key.presenter.js';
import { ApiKeysService } from './api-keys.service.js';
import { IssuedApiKeyResponse } from './dto/api-key.responses.js';
import { CreateApiTokenDto } from './dto/create-api-token.dto.js';

/** A user's own API keys: list, issue (custom or for a client's file flow) and revoke. Self-key only. */
@ApiTags('api-tokens')
@Controller('users/:userID/api-tokens')
@SelfKeyOnly()
@OwnerOnly()
export class ApiTokensController {
  constructor(
    private readonly keys: ApiKeysService,
    private readonly clients: ClientsService,
  ) {}

  @Get()
  @ApiOkResponse({ type: ApiKeyDocument, isArray: true, description: 'Without their tokens, newest first.' })
  async list(@TargetUser() user: UserRow): Promise<ApiKeyDocument[]> {
    return (await this.keys.list(user.id)).map((row) => toApiKeyDocument(row));
  }

  @Post('create')
  @HttpCode(200)
  @ApiOkResponse({ type: IssuedApiKeyResponse, description: 'The new key, with its token.' })
  async create(@TargetUser() user: UserRow, @Body() dto: CreateApiTokenDto): Promise<IssuedApiKeyResponse> {
    if (dto.clientID !== undefined && dto.permissions !== undefined) {
      throw new BadRequestException('Give either clientID (a key for that client) or permissions (a custom key), not both.');
    }
    if (dto.clientID === undefined && dto.permissions === undefined) {
      throw new BadRequestException('Give either clientID (a key for that client) or permissions (a custom key).');
    }
    if (dto.clientID !== undefined) {
      const client = await this.clients.find(dto.clientID);
      const { row, token } = await this.keys.issue({
        userID: user.id,
        identifier: dto.identifier ?? client.name,
        permissions: client.requestedPermissions,
        fromAPIClient: client.clientID,
      });
      return toIssuedApiKeyDocument({
        row,
        token,
        apiKeyFile: client.apiKeyFormat ? client.apiKeyFormat.replaceAll(SERVICE_KEY_PLACEHOLDER, token) : token,
        apiKeyFilename: client.apiKeyFilename,
      });
    }
    const { row, token } = await this.keys.issue({
      userID: user.id,
      identifier: dto.identifier ?? 'Custom Token',
      permissions: dto.permissions ?? [],
      fromAPIClient: null,
    });
    return toApiKeyDocument(row, token);
  }

  @Delete(':keyID')
  @HttpCode(200)
  @ApiEmptyObjectResponse()
  async revoke(@TargetUser() user: UserRow, @Param('keyID', new ParseIdPipe('keyID')) keyID: number): Promise<EmptyObject> {
    await this.keys.revoke(user.id, keyID);
    return {};
  }
}
