import { SetMetadata } from '@nestjs/common';
import type { AuthRateLimitName } from './rate-limit.policies.js';

export const RATE_LIMIT_POLICY = 'rate-limit:policy';

/** Applies one of the named aggressive policies instead of the default per-IP limit. */
export const RateLimit = (policy: AuthRateLimitName) => SetMetadata(RATE_LIMIT_POLICY, policy);
