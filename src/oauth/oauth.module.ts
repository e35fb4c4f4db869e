import { Module } from '@nestjs/common';
import { ApiKeysModule } from '../api-keys/api-keys.module.js';
import { ClientsModule } from '../clients/clients.module.js';
import { OAuthController } from './oauth.controller.js';
import { OAuthService } from './oauth.service.js';

@Module({ imports: [ClientsModule, ApiKeysModule], controllers: [OAuthController], providers: [OAuthService] })
export class OAuthModule {}
