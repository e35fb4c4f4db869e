import type { Request, Response } from 'express';
import { SERVER_VERSION } from '../status/version.js';

/** The links a person or a client starts from, relative to this server's origin. */
export const API_LINKS = {
  docs: '/api/v1/docs',
  openapi: '/api/v1/docs.json',
  status: '/api/v1/status',
  oauthAuthorize: '/api/v1/oauth/authorize',
} as const;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Score Tracker</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 42rem; margin: 3rem auto; padding: 0 1rem; color: #1d1d1f; }
  h1 { font-size: 1.6rem; margin-bottom: 0.25rem; }
  .version { color: #6e6e73; margin-top: 0; }
  code { background: #f2f2f4; padding: 0.1rem 0.3rem; border-radius: 4px; }
  li { margin: 0.4rem 0; }
</style>
</head>
<body>
<main>
  <h1>Score Tracker</h1>
  <p class="version">version ${SERVER_VERSION}</p>
  <p>A score tracking service for rhythm games (beatmania IIDX, SOUND VOLTEX, CHUNITHM, BMS, DDR,
  maimai DX, pop'n music and more). Players import their scores; the service keeps their scores,
  personal bests and sessions, and computes ratings, classes and leaderboards.
  This server is its JSON HTTP API, under <code>/api/v1</code>.</p>
  <ul>
    <li><a href="${API_LINKS.docs}">API documentation</a>: every route, tried from the browser
      (the OpenAPI document is <a href="${API_LINKS.openapi}"><code>${API_LINKS.openapi}</code></a>).</li>
    <li><a href="${API_LINKS.status}">Status</a>: the server's time and version, and who you are signed in as.</li>
    <li>Apps that act for a player send the player to the authorization page,
      <code>${API_LINKS.oauthAuthorize}?client_id=…&amp;redirect_uri=…</code>, where the player signs in
      and approves them (OAuth2 with PKCE; see “OAuth2” in the API documentation).</li>
  </ul>
</main>
</body>
</html>
`;

/** GET / (and HEAD): a small page that says what this server is and where to start. */
export function serveHomePage(_req: Request, res: Response): void {
  res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
  res.type('html').send(PAGE);
}
