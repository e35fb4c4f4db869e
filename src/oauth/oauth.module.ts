import { Module } from '@nestjs/common';
import { ClientsModule } from '../clients/clients.module.js';
import { RepositoriesModule } from '../repositories/repositories.module.js';
import { AuthModule } from '../auth/auth.module.js';
import { AuthorizeController } from './authorize.controller.js';
import { AuthorizeService } from './authorize.service.js';
import { OAuthController } from './oauth.controller.js';
import { OAuthService } from './oauth.service.js';

@Module({
  imports: [RepositoriesModule, ClientsModule, AuthModule],
  controllers: [OAuthController, AuthorizeController],
  providers: [OAuthService, AuthorizeService],
})
export class OAuthModule {}
