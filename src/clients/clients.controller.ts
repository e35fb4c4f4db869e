import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentUser, SelfKeyOnly } from '../http/auth/access.decorators.js';
import type { AuthContext, UserRow } from '../http/auth/auth-context.js';
import { ApiEmptyObjectResponse, type EmptyObject } from '../http/empty-object.js';
import { ClientDocument, toClientDocument } from '../presenters/client.presenter.js';
import { ClientsService } from './clients.service.js';
import { ListedClientDocument } from './dto/client.responses.js';
import { CreateClientDto, PatchClientDto } from './dto/clients.dto.js';

@ApiTags('clients')
@Controller('clients')
@SelfKeyOnly()
export class ClientsController {
  constructor(private readonly clients: ClientsService) {}

  /** The list shows the secrets, and also names requestedPermissions `requestPermissions`, as the spec's list does. */
  @Get()
  @ApiOkResponse({ type: ListedClientDocument, isArray: true })
  async list(@CurrentUser() user: UserRow): Promise<ListedClientDocument[]> {
    const rows = await this.clients.listOwned(user.id);
    return rows.map((row) => ({ ...toClientDocument(row, true), requestPermissions: row.requestedPermissions }));
  }

  @Post('create')
  @HttpCode(200)
  @ApiOkResponse({ type: ClientDocument, description: 'With its clientSecret.' })
  async create(@Auth() auth: AuthContext & { user: UserRow }, @Body() dto: CreateClientDto): Promise<ClientDocument> {
    return toClientDocument(await this.clients.create(auth, dto), true);
  }

  @Get(':clientID')
  @ApiOkResponse({ type: ClientDocument, description: 'Without its clientSecret.' })
  async get(@Param('clientID') clientID: string): Promise<ClientDocument> {
    return toClientDocument(await this.clients.find(clientID), false);
  }

  @Patch(':clientID')
  @ApiOkResponse({ type: ClientDocument })
  async patch(@CurrentUser() user: UserRow, @Param('clientID') clientID: string, @Body() dto: PatchClientDto): Promise<ClientDocument> {
    return toClientDocument(await this.clients.patch(user, clientID, dto), true);
  }

  @Post(':clientID/reset-secret')
  @HttpCode(200)
  @ApiOkResponse({ type: ClientDocument, description: 'With its new clientSecret.' })
  async resetSecret(@CurrentUser() user: UserRow, @Param('clientID') clientID: string): Promise<ClientDocument> {
    return toClientDocument(await this.clients.resetSecret(user, clientID), true);
  }

  @Delete(':clientID')
  @HttpCode(200)
  @ApiEmptyObjectResponse()
  async delete(@CurrentUser() user: UserRow, @Param('clientID') clientID: string): Promise<EmptyObject> {
    await this.clients.delete(user, clientID);
    return {};
  }
}
