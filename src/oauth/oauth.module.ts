import { Module } from '@nestjs/common';
import { ClientsModule } from '../clients/clients.module.js';
import { RepositoriesModule } from '../repositories/repositories.module.js';
import { OAuthController } from './oauth.controller.js';
import { OAuthService } from './oauth.service.js';

@Module({ imports: [RepositoriesModule, ClientsModule], controllers: [OAuthController], providers: [OAuthService] })
export class OAuthModule {}
