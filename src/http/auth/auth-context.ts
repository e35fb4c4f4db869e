import type { UserRow } from '../../database/schema.js';
import { PERMISSIONS, type Permission } from '../../common/permissions.js';

export type { UserRow };

/** Who is making a request, resolved once per request by AuthMiddleware. */
export type AuthContext =
  | { kind: 'guest'; user: null; permissions: readonly Permission[] }
  | { kind: 'session'; user: UserRow; permissions: readonly Permission[] }
  | { kind: 'token'; user: UserRow; permissions: readonly Permission[]; keyID: number; fromAPIClient: string | null };

export const GUEST: AuthContext = { kind: 'guest', user: null, permissions: [] };

export function sessionAuth(user: UserRow): AuthContext {
  return { kind: 'session', user, permissions: PERMISSIONS };
}

export const ADMIN_AUTH_LEVEL = 3;
export const BANNED_AUTH_LEVEL = 0;

export function isAdmin(auth: AuthContext): boolean {
  return auth.user !== null && auth.user.authLevel >= ADMIN_AUTH_LEVEL;
}
