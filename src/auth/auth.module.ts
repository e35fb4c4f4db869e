import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { AuthController } from './auth.controller.js';
import { AuthService } from './auth.service.js';
import { CaptchaService } from './captcha.service.js';
import { RepositoriesModule } from '../repositories/repositories.module.js';
import { InvitesService } from './invites.service.js';
import { LocalAuthGuard } from './local-auth.guard.js';
import { LocalStrategy } from './local.strategy.js';

@Module({
  imports: [PassportModule, RepositoriesModule],
  controllers: [AuthController],
  providers: [AuthService, CaptchaService, InvitesService, LocalStrategy, LocalAuthGuard],
  exports: [InvitesService],
})
export class AuthModule {}
