import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { AuthController } from './auth.controller.js';
import { AuthService } from './auth.service.js';
import { CaptchaService } from './captcha.service.js';
import { RepositoriesModule } from '../repositories/repositories.module.js';
import { InvitesModule } from './invites.module.js';
import { LocalAuthGuard } from './local-auth.guard.js';
import { LocalStrategy } from './local.strategy.js';

@Module({
  imports: [PassportModule, RepositoriesModule, InvitesModule],
  controllers: [AuthController],
  providers: [AuthService, CaptchaService, LocalStrategy, LocalAuthGuard],
  exports: [AuthService, CaptchaService],
})
export class AuthModule {}
