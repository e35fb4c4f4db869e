import { Injectable, UnauthorizedException } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-local';
import type { UserRow } from '../http/auth/auth-context.js';
import { AuthService } from './auth.service.js';

@Injectable()
export class LocalStrategy extends PassportStrategy(Strategy) {
  constructor(private readonly auth: AuthService) {
    super({ usernameField: 'username', passwordField: '!password', session: false });
  }

  async validate(username: string, password: string): Promise<UserRow> {
    const user = await this.auth.validateCredentials(username, password);
    if (!user) throw new UnauthorizedException('Invalid username or password.');
    return user;
  }
}
