import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentUser, SelfKeyOnly } from '../http/auth/access.decorators.js';
import type { AuthContext, UserRow } from '../http/auth/auth-context.js';
import { ApiEmptyObjectResponse, type EmptyObject } from '../http/empty-object.js';
import { ClientDocument, toClientDocument, toListedClientDocument } from '../presenters/client.presenter.js';
import { ClientsService } from './clients.service.js';
import { ListedClientDocument } from './dto/client.responses.js';
import { CreateClientDto, PatchClientDto, WebhookDeliveriesQueryDto } from './dto/clients.dto.js';
import { toWebhookDeliveryDocument, WebhookDeliveryDocument } from '../presenters/webhook-delivery.presenter.js';

@ApiTags('clients')
@Controller('clients')
@SelfKeyOnly()
export class ClientsController {
  constructor(private readonly clients: ClientsService) {}

  /** The list also names requestedPermissions `requestPermissions`, as the spec's list does. Secrets are shown only once, so never here. */
  @Get()
  @ApiOkResponse({ type: ListedClientDocument, isArray: true })
  async list(@CurrentUser() user: UserRow): Promise<ListedClientDocument[]> {
    const rows = await this.clients.listOwned(user.id);
    return rows.map(toListedClientDocument);
  }

  @Post('create')
  @HttpCode(200)
  @ApiOkResponse({ type: ClientDocument, description: 'With its clientSecret and webhookSecret, shown this once.' })
  async create(@Auth() auth: AuthContext & { user: UserRow }, @Body() dto: CreateClientDto): Promise<ClientDocument> {
    const { row, secret } = await this.clients.create(auth, dto);
    return toClientDocument(row, secret, true);
  }

  @Get(':clientID')
  @ApiOkResponse({ type: ClientDocument, description: 'Without its clientSecret.' })
  async get(@Param('clientID') clientID: string): Promise<ClientDocument> {
    return toClientDocument(await this.clients.find(clientID));
  }

  @Patch(':clientID')
  @ApiOkResponse({ type: ClientDocument })
  async patch(@CurrentUser() user: UserRow, @Param('clientID') clientID: string, @Body() dto: PatchClientDto): Promise<ClientDocument> {
    return toClientDocument(await this.clients.patch(user, clientID, dto));
  }

  @Post(':clientID/reset-secret')
  @HttpCode(200)
  @ApiOkResponse({ type: ClientDocument, description: 'With its new clientSecret, shown this once.' })
  async resetSecret(@CurrentUser() user: UserRow, @Param('clientID') clientID: string): Promise<ClientDocument> {
    const { row, secret } = await this.clients.resetSecret(user, clientID);
    return toClientDocument(row, secret);
  }

  /** A new webhook signing secret, shown once here; the owner's receiver must switch to it. */
  @Post(':clientID/reset-webhook-secret')
  @HttpCode(200)
  @ApiOkResponse({ type: ClientDocument, description: 'With its new webhookSecret (and without its clientSecret).' })
  async resetWebhookSecret(@CurrentUser() user: UserRow, @Param('clientID') clientID: string): Promise<ClientDocument> {
    return toClientDocument(await this.clients.resetWebhookSecret(user, clientID), undefined, true);
  }

  /** The client's webhook delivery log, newest first: what was sent, each delivery's attempts and outcome. Owner only. */
  @Get(':clientID/webhook-deliveries')
  @ApiOkResponse({ type: WebhookDeliveryDocument, isArray: true })
  async webhookDeliveries(
    @CurrentUser() user: UserRow,
    @Param('clientID') clientID: string,
    @Query() query: WebhookDeliveriesQueryDto,
  ): Promise<WebhookDeliveryDocument[]> {
    const rows = await this.clients.deliveries(user, clientID, query.limit ?? 50, query.before);
    return rows.map(toWebhookDeliveryDocument);
  }

  @Delete(':clientID')
  @HttpCode(200)
  @ApiEmptyObjectResponse()
  async delete(@CurrentUser() user: UserRow, @Param('clientID') clientID: string): Promise<EmptyObject> {
    await this.clients.delete(user, clientID);
    return {};
  }
}
