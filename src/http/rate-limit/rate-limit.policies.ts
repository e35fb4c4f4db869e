import type { ApiRequest } from '../request.js';

export interface LimitRule {
  points: number;
  /** Window in seconds. */
  duration: number;
}

export interface RateLimitPolicy {
  /** Counted per client IP. */
  ip: LimitRule;
  /** Counted per target account, keyed by what the request names (username, email or the session's user). */
  account?: LimitRule & {
    key: (req: ApiRequest) => string | undefined;
    /**
     * Count only failed attempts (the handler reports them) and clear the count on a success, so
     * that correct logins, however many, never lock an account.
     */
    failuresOnly?: true;
  };
}

const bodyString = (req: ApiRequest, field: string): string | undefined => {
  const value: unknown = (req.body as Record<string, unknown> | undefined)?.[field];
  return typeof value === 'string' && value.length > 0 ? value.trim().toLowerCase().slice(0, 320) : undefined;
};

/** The /auth endpoints are limited aggressively (spec 4.1), and so is OAuth2 code creation; the values are documented in the README. */
export const AUTH_RATE_LIMITS = {
  login: { ip: { points: 15, duration: 600 }, account: { points: 10, duration: 600, key: (req) => bodyString(req, 'username'), failuresOnly: true } },
  register: { ip: { points: 10, duration: 600 }, account: { points: 3, duration: 3600, key: (req) => bodyString(req, 'email') } },
  'verify-email': { ip: { points: 10, duration: 600 } },
  'resend-verify-email': {
    ip: { points: 2, duration: 300 },
    account: { points: 2, duration: 300, key: (req) => (req.auth.user ? String(req.auth.user.id) : undefined) },
  },
  'forgot-password': { ip: { points: 3, duration: 300 }, account: { points: 2, duration: 300, key: (req) => bodyString(req, 'email') } },
  'reset-password': { ip: { points: 10, duration: 600 } },
  // change-password, change-username and change-email check the current password: a stolen session must not guess it.
  'account-change': {
    ip: { points: 30, duration: 600 },
    account: { points: 10, duration: 600, key: (req) => (req.auth.user ? String(req.auth.user.id) : undefined) },
  },
  // OAuth2 codes last 30 minutes and a confirmation screen needs one per approval: a few suffice.
  'create-code': {
    ip: { points: 30, duration: 600 },
    account: { points: 10, duration: 600, key: (req) => (req.auth.user ? String(req.auth.user.id) : undefined) },
  },
} satisfies Record<string, RateLimitPolicy>;

export type AuthRateLimitName = keyof typeof AUTH_RATE_LIMITS;
