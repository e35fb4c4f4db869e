import { ForbiddenException, Injectable, NotFoundException, UnauthorizedException, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { ApiRequest } from '../request.js';
import { ACCESS_RULES, type AccessRules } from './access.decorators.js';
import { isAdmin } from './auth-context.js';
import { AuthResolver } from './auth-resolver.service.js';

/**
 * The one global guard. In order: resolve :userID (404 unknown, 401 `me` as guest), then the
 * route's access rules: authentication (401), session-only (403 for tokens), admin, permissions,
 * and ownership (403).
 */
@Injectable()
export class AccessGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly resolver: AuthResolver,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const req = context.switchToHttp().getRequest<ApiRequest>();
    const auth = req.auth;

    const userParam = req.params?.userID;
    if (typeof userParam === 'string') {
      if (userParam === 'me') {
        if (!auth.user) throw new UnauthorizedException("Cannot use the 'me' userID without authentication.");
        req.targetUser = auth.user;
      } else {
        const target = await this.resolver.findUserByParam(userParam);
        if (!target) throw new NotFoundException(`The user ${userParam} does not exist.`);
        req.targetUser = target;
      }
    }

    // Class-level and method-level rules add up: a method decorator never loosens its controller's.
    const [method, controller] = this.reflector.getAll<(AccessRules | undefined)[]>(ACCESS_RULES, [context.getHandler(), context.getClass()]);
    if (!method && !controller) return true;
    const rules: AccessRules = {
      ...controller,
      ...method,
      permissions: [...(controller?.permissions ?? []), ...(method?.permissions ?? [])],
      session: method?.session ?? controller?.session,
      owner: Boolean(method?.owner || controller?.owner),
      ownerOrAdmin: Boolean(method?.ownerOrAdmin || controller?.ownerOrAdmin),
      admin: Boolean(method?.admin || controller?.admin),
      user: Boolean(method?.user || controller?.user),
    };

    if (rules.user && !auth.user) throw new UnauthorizedException('Authentication is required for this endpoint.');
    if (rules.session && auth.kind !== 'session') {
      throw new ForbiddenException(
        rules.session === 'session'
          ? 'This endpoint requires session-level authentication; API keys cannot use it.'
          : 'This request must be made by the user themselves (self-key); API keys cannot use it.',
      );
    }
    if (rules.admin && !isAdmin(auth)) throw new ForbiddenException('This endpoint requires an administrator (authLevel 3 or higher).');
    const missing = (rules.permissions ?? []).filter((p) => !auth.permissions.includes(p));
    if (missing.length > 0) throw new ForbiddenException(`You are missing the following permissions necessary for this request: ${missing.join(', ')}.`);
    if (rules.owner && req.targetUser && req.targetUser.id !== auth.user?.id) throw new ForbiddenException('You are not authorised as this user.');
    if (rules.ownerOrAdmin && req.targetUser && req.targetUser.id !== auth.user?.id && !isAdmin(auth)) {
      throw new ForbiddenException('You are not authorised as this user.');
    }
    return true;
  }
}
