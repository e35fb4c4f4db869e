import type { Request } from 'express';
import type { AuthContext, UserRow } from './auth/auth-context.js';

declare module 'express-session' {
  interface SessionData {
    userID: number;
    /** When the user logged in; sessions older than a password reset are rejected. */
    authAt: number;
  }
}

/** The Express request as the API sees it after AuthMiddleware and AccessGuard. */
export interface ApiRequest extends Request {
  auth: AuthContext;
  /** The user a `:userID` route parameter names, resolved by AccessGuard. */
  targetUser?: UserRow;
  /** Set when the request came without a session cookie: loads an empty session, for routes that log in. */
  openSession?: () => Promise<void>;
}
