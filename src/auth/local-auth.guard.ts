import { ForbiddenException, Injectable, UnauthorizedException, type ExecutionContext } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { BANNED_AUTH_LEVEL, type UserRow } from '../http/auth/auth-context.js';
import type { ApiRequest } from '../http/request.js';
import { ApiValidationPipe } from '../http/validation.pipe.js';
import { RateLimitService } from '../http/rate-limit/rate-limit.service.js';
import { CaptchaService } from './captcha.service.js';
import { LoginDto } from './dto/auth.dto.js';

/**
 * Login: the body is validated (400) and the captcha checked before passport-local looks at the
 * credentials (401), since guards run before pipes.
 */
@Injectable()
export class LocalAuthGuard extends AuthGuard('local') {
  private readonly pipe = new ApiValidationPipe();

  constructor(
    private readonly captcha: CaptchaService,
    private readonly moduleRef: ModuleRef,
  ) {
    super();
  }

  /** The per-account login limit counts failed passwords only: a wrong one counts, a right one clears the count. */
  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<ApiRequest>();
    const dto = (await this.pipe.transform(req.body, { type: 'body', metatype: LoginDto })) as LoginDto;
    await this.captcha.verify(dto.captcha, req.ip);
    const limits = this.moduleRef.get(RateLimitService, { strict: false });
    let allowed: boolean;
    try {
      allowed = (await super.canActivate(context)) as boolean;
    } catch (err) {
      if (err instanceof UnauthorizedException) await limits.recordFailure('login', req);
      throw err;
    }
    await limits.recordSuccess('login', req);
    return allowed;
  }

  override handleRequest<T = UserRow>(err: unknown, user: T | false): T {
    if (err) throw err;
    if (!user) throw new UnauthorizedException('Invalid username or password.');
    if ((user as unknown as UserRow).authLevel <= BANNED_AUTH_LEVEL) throw new ForbiddenException('This account is banned.');
    return user;
  }
}
