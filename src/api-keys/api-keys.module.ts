import { Module } from '@nestjs/common';
import { ClientsModule } from '../clients/clients.module.js';
import { ApiKeysService } from './api-keys.service.js';
import { ApiTokensController } from './api-tokens.controller.js';

@Module({ imports: [ClientsModule], controllers: [ApiTokensController], providers: [ApiKeysService], exports: [ApiKeysService] })
export class ApiKeysModule {}
