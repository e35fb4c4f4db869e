// A tiny third-party app that gets a player's API key through OAuth2 with PKCE.
//   1. Register a client whose redirectUri is http://localhost:8080/callback (POST /api/v1/clients/create).
//   2. API_URL=http://127.0.0.1:3000 CLIENT_ID=CI… CLIENT_SECRET=CS… node examples/oauth-sample-app.mjs
//   3. Open http://localhost:8080 and follow "Connect your account".
// Node 20+, no dependencies. Keep the key (and the client secret) on the server side, as here.
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';

const API = (process.env.API_URL ?? 'http://127.0.0.1:3000').replace(/\/$/, '');
const { CLIENT_ID, CLIENT_SECRET } = process.env;
const PORT = Number(process.env.PORT ?? 8080);
const REDIRECT_URI = process.env.REDIRECT_URI ?? `http://localhost:${PORT}/callback`;
const pending = new Map(); // state → PKCE verifier, for authorizations under way
const escape = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const page = (res, status, body) =>
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(`<!DOCTYPE html><title>Sample app</title><main>${body}</main>`);

http
  .createServer(async (req, res) => {
    const url = new URL(req.url, REDIRECT_URI);
    if (url.pathname === '/') return page(res, 200, '<h1>Sample app</h1><a href="/start">Connect your account</a>');
    if (url.pathname === '/start') {
      const state = randomBytes(16).toString('hex');
      const verifier = randomBytes(32).toString('base64url');
      pending.set(state, verifier);
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      const query = new URLSearchParams({ client_id: CLIENT_ID, redirect_uri: REDIRECT_URI, state, code_challenge: challenge, code_challenge_method: 'S256' });
      // The state also goes in a cookie, so that a callback started in another browser is refused.
      return res
        .writeHead(302, { location: `${API}/api/v1/oauth/authorize?${query}`, 'set-cookie': `sample_state=${state}; HttpOnly; SameSite=Lax; Path=/` })
        .end();
    }
    if (url.pathname !== '/callback') return page(res, 404, 'Not found');
    const state = url.searchParams.get('state');
    const cookie = /(?:^|;\s*)sample_state=([0-9a-f]+)/.exec(req.headers.cookie ?? '')?.[1];
    if (!state || state !== cookie || !pending.has(state)) return page(res, 400, '<p id="result">Refused: the state does not match the one this app sent.</p>');
    const verifier = pending.get(state);
    pending.delete(state);
    if (url.searchParams.get('error')) return page(res, 200, `<p id="result">Not connected: ${escape(url.searchParams.get('error'))}</p>`);
    const form = {
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
      redirect_uri: REDIRECT_URI,
      grant_type: 'authorization_code',
      code: url.searchParams.get('code') ?? '',
      code_verifier: verifier,
    };
    const token = await fetch(`${API}/api/v1/oauth/token`, { method: 'POST', body: new URLSearchParams(form) }).then((r) => r.json());
    if (!token.token) return page(res, 400, `<p id="result">The token exchange failed: ${escape(token.message ?? JSON.stringify(token))}</p>`);
    const status = await fetch(`${API}/api/v1/status`, { headers: { authorization: `Bearer ${token.token}` } }).then((r) => r.json());
    const user = await fetch(`${API}/api/v1/users/${status.whoami}`).then((r) => r.json());
    page(res, 200, `<p id="result">Connected as ${escape(user.username)} (user ${escape(status.whoami)}) with: ${escape(status.permissions.join(', '))}</p>`);
  })
  .listen(PORT, '127.0.0.1', () => console.log(`Sample app on http://localhost:${PORT} (redirect URI ${REDIRECT_URI})`));
