import { Module } from '@nestjs/common';
import { ClientsModule } from '../clients/clients.module.js';
import { RepositoriesModule } from '../repositories/repositories.module.js';
import { ApiKeysService } from './api-keys.service.js';
import { ApiTokensController } from './api-tokens.controller.js';

@Module({ imports: [RepositoriesModule, ClientsModule], controllers: [ApiTokensController], providers: [ApiKeysService], exports: [ApiKeysService] })
export class ApiKeysModule {}
