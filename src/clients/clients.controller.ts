import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth, CurrentUser, SelfKeyOnly } from '../http/auth/access.decorators.js';
import type { AuthContext, UserRow } from '../http/auth/auth-context.js';
import { ClientsService, toClientDocument } from './clients.service.js';
import { CreateClientDto, PatchClientDto } from './dto/clients.dto.js';

@ApiTags('clients')
@Controller('clients')
@SelfKeyOnly()
export class ClientsController {
  constructor(private readonly clients: ClientsService) {}

  /** The list shows the secrets, and also names requestedPermissions `requestPermissions`, as the spec's list does. */
  @Get()
  async list(@CurrentUser() user: UserRow) {
    const rows = await this.clients.listOwned(user.id);
    return rows.map((row) => ({ ...toClientDocument(row, true), requestPermissions: row.requestedPermissions }));
  }

  @Post('create')
  @HttpCode(200)
  async create(@Auth() auth: AuthContext & { user: UserRow }, @Body() dto: CreateClientDto) {
    return toClientDocument(await this.clients.create(auth, dto), true);
  }

  @Get(':clientID')
  async get(@Param('clientID') clientID: string) {
    return toClientDocument(await this.clients.find(clientID), false);
  }

  @Patch(':clientID')
  async patch(@CurrentUser() user: UserRow, @Param('clientID') clientID: string, @Body() dto: PatchClientDto) {
    return toClientDocument(await this.clients.patch(user, clientID, dto), true);
  }

  @Post(':clientID/reset-secret')
  @HttpCode(200)
  async resetSecret(@CurrentUser() user: UserRow, @Param('clientID') clientID: string) {
    return toClientDocument(await this.clients.resetSecret(user, clientID), true);
  }

  @Delete(':clientID')
  @HttpCode(200)
  async delete(@CurrentUser() user: UserRow, @Param('clientID') clientID: string) {
    await this.clients.delete(user, clientID);
    return {};
  }
}
