import { applyDecorators, createParamDecorator, SetMetadata, type ExecutionContext } from '@nestjs/common';
import { ApiBearerAuth, ApiCookieAuth, ApiForbiddenResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { ApiRequest } from '../request.js';
import type { AuthContext, UserRow } from './auth-context.js';
import type { Permission } from '../../common/permissions.js';

export const SESSION_COOKIE = 'score_tracker_session';

export interface AccessRules {
  permissions?: Permission[];
  /** 'self-key': the user acting through their session (client management, profile PATCH). 'session': session-only routes (notifications). */
  session?: 'self-key' | 'session';
  /** Requester must be the :userID of the route. */
  owner?: boolean;
  /** Requester must be the :userID of the route, or an administrator. */
  ownerOrAdmin?: boolean;
  admin?: boolean;
  /** Any authenticated requester. */
  user?: boolean;
}

export const ACCESS_RULES = 'access:rules';

function mergeAccess(rules: AccessRules): MethodDecorator & ClassDecorator {
  return (target: object, key?: string | symbol, descriptor?: PropertyDescriptor) => {
    const holder = descriptor ? descriptor.value : target;
    const existing = (Reflect.getMetadata(ACCESS_RULES, holder) as AccessRules | undefined) ?? {};
    const merged: AccessRules = {
      ...existing,
      ...rules,
      permissions: [...(existing.permissions ?? []), ...(rules.permissions ?? [])],
    };
    SetMetadata(ACCESS_RULES, merged)(target, key as string, descriptor as PropertyDescriptor);
  };
}

/** An API key needs these permissions; a session holds all of them. */
export const RequirePermissions = (...permissions: Permission[]) =>
  applyDecorators(mergeAccess({ permissions, user: true }), ApiBearerAuth(), ApiCookieAuth(), ApiUnauthorizedResponse(), ApiForbiddenResponse());

/** Only the user acting through their own session; bearer tokens get 403. */
export const SelfKeyOnly = () =>
  applyDecorators(mergeAccess({ session: 'self-key', user: true }), ApiCookieAuth(), ApiUnauthorizedResponse(), ApiForbiddenResponse());

/** Only a session cookie; bearer tokens get 403 (notifications). */
export const SessionOnly = () =>
  applyDecorators(mergeAccess({ session: 'session', user: true }), ApiCookieAuth(), ApiUnauthorizedResponse(), ApiForbiddenResponse());

/** The requester must be the user named by :userID. */
export const OwnerOnly = () => applyDecorators(mergeAccess({ owner: true, user: true }), ApiForbiddenResponse());

/** The requester must be the user named by :userID, or an administrator (authLevel 3 or more). */
export const OwnerOrAdmin = () => applyDecorators(mergeAccess({ ownerOrAdmin: true, user: true }), ApiForbiddenResponse());

/** authLevel of at least 3. */
export const RequireAdmin = () =>
  applyDecorators(mergeAccess({ admin: true, user: true }), ApiBearerAuth(), ApiCookieAuth(), ApiUnauthorizedResponse(), ApiForbiddenResponse());

/** Any authenticated requester (session or token). */
export const RequireUser = () => applyDecorators(mergeAccess({ user: true }), ApiBearerAuth(), ApiCookieAuth(), ApiUnauthorizedResponse());

/** The requester's AuthContext. */
export const Auth = createParamDecorator((_: unknown, ctx: ExecutionContext): AuthContext => ctx.switchToHttp().getRequest<ApiRequest>().auth);

/** The authenticated requester; only on routes guarded so that a user is present. */
export const CurrentUser = createParamDecorator((_: unknown, ctx: ExecutionContext): UserRow => {
  const user = ctx.switchToHttp().getRequest<ApiRequest>().auth.user;
  if (!user) throw new Error('CurrentUser used on a route that admits guests');
  return user;
});

/** The user named by the route's :userID (id, case-insensitive username, or `me`). */
export const TargetUser = createParamDecorator((_: unknown, ctx: ExecutionContext): UserRow => {
  const user = ctx.switchToHttp().getRequest<ApiRequest>().targetUser;
  if (!user) throw new Error('TargetUser used on a route without :userID');
  return user;
});
