import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { UsersModule } from '../users/users.module.js';
import { AuthController } from './auth.controller.js';
import { AuthService } from './auth.service.js';
import { CaptchaService } from './captcha.service.js';
import { EmailCodesRepository } from './email-codes.repository.js';
import { InvitesService } from './invites.service.js';
import { LocalAuthGuard } from './local-auth.guard.js';
import { LocalStrategy } from './local.strategy.js';

@Module({
  imports: [PassportModule, UsersModule],
  controllers: [AuthController],
  providers: [AuthService, CaptchaService, EmailCodesRepository, InvitesService, LocalStrategy, LocalAuthGuard],
  exports: [InvitesService],
})
export class AuthModule {}
