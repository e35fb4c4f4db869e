import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { ApiRequest } from '../request.js';
import { RATE_LIMIT_POLICY } from './rate-limit.decorator.js';
import type { AuthRateLimitName } from './rate-limit.policies.js';
import { RateLimitService } from './rate-limit.service.js';

@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly limits: RateLimitService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const req = context.switchToHttp().getRequest<ApiRequest>();
    const policy = this.reflector.get<AuthRateLimitName | undefined>(RATE_LIMIT_POLICY, context.getHandler());
    if (policy) await this.limits.checkAuth(policy, req);
    else await this.limits.checkDefault(req);
    return true;
  }
}
