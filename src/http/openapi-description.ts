import type { ApiProfile } from '../presenters/profile.js';

const ANSWERS: Record<ApiProfile, string> = {
  spec: 'JSON answers are the documents themselves. Errors are `{statusCode, error, message}` (ErrorResponse)',
  tachi:
    "This server runs Tachi's profile (API_PROFILE=tachi): JSON answers are wrapped as `{success: true, description, body}`, " +
    "with Tachi's documents and request field names. Errors are `{success: false, description}` (ErrorResponse; a 429 adds `status` and `message`)",
};

/** The OpenAPI document's description: what the server is, how to authenticate, what errors look like. */
export function apiDescription(profile: ApiProfile): string {
  return [
    'A score tracking service for rhythm games, compatible with Tachi: players import their scores, and the service keeps ' +
      'scores, personal bests, sessions and imports, and computes ratings, classes and leaderboards. ' +
      'Every path starts with /api/v1; [GET /api/v1/status](/api/v1/status) answers who you are, with which permissions, ' +
      'and the server version; [GET /api/v1/status/ready](/api/v1/status/ready) whether the database (and Redis) answer.',
    '**Authentication.** Public reads need none. Otherwise either:\n' +
      '- a bearer token (`Authorization: Bearer <token>`): an API token of 40 hexadecimal characters, issued by ' +
      'POST /api/v1/users/{userID}/api-tokens/create or by the OAuth2 exchange POST /api/v1/oauth/token; it holds only its permissions;\n' +
      '- the session cookie `score_tracker_session`, set by POST /api/v1/auth/login and POST /api/v1/auth/register; it holds every permission.\n\n' +
      'Each operation lists the ways it accepts: one that lists only the cookie answers a token with 403. ' +
      'With both, the token is used; a malformed or unknown token is a 401, never a guest.',
    '**Conventions.** `{userID}` is a numeric id, a username (case-insensitive) or `me`. Timestamps are Unix milliseconds.',
    `**Answers.** ${ANSWERS[profile]}: 400 invalid input, 401 not authenticated, 403 not allowed, 404 not found, 409 conflict, ` +
      '413 too large, 415 a body that is not JSON (or not multipart/form-data on an upload), 429 rate limited (retry after its Retry-After header). The score hooks under /api/v1/ir/ (except direct-manual) ' +
      "answer in their own clients' shapes.",
  ].join('\n\n');
}
