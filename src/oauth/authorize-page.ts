import type { Permission } from '../common/permissions.js';

/** Text placed into HTML (element content or a double-quoted attribute): every special character escaped. */
export function escapeHtml(value: string | number): string {
  return String(value).replace(/[&<>"'`=]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A piece of markup already escaped; only `html` makes one. */
export class SafeHtml {
  constructor(readonly markup: string) {}
  toString(): string {
    return this.markup;
  }
}

type Part = string | number | SafeHtml | readonly SafeHtml[] | null | undefined | false;

/** Tagged template: every interpolated value is escaped unless it is SafeHtml (or a list of them). */
export function html(strings: TemplateStringsArray, ...values: Part[]): SafeHtml {
  let out = strings[0];
  values.forEach((value, i) => {
    if (value instanceof SafeHtml) out += value.markup;
    else if (Array.isArray(value)) out += (value as readonly SafeHtml[]).map((v) => v.markup).join('');
    else if (value !== null && value !== undefined && value !== false) out += escapeHtml(value as string | number);
    out += strings[i + 1];
  });
  return new SafeHtml(out);
}

const PERMISSION_TEXT: Record<Permission, string> = {
  submit_score: 'Submit scores and imports for you',
  customise_profile: 'Change your profile (status, picture, banner, settings)',
  customise_score: 'Change your scores (comments, highlights)',
  customise_session: 'Change your sessions (names, descriptions, highlights)',
  delete_score: 'Delete your scores and imports',
  manage_targets: 'Manage your goals and quests',
  manage_rivals: 'Choose your rivals',
};

/** The authorization request as carried in hidden fields from one step of the page to the next. */
export interface AuthorizationParams {
  client_id: string;
  redirect_uri: string;
  state: string;
  code_challenge?: string;
  code_challenge_method?: string;
}

function hiddenFields(params: AuthorizationParams, csrf: string): SafeHtml {
  const fields: [string, string | undefined][] = [
    ['client_id', params.client_id],
    ['redirect_uri', params.redirect_uri],
    ['state', params.state],
    ['code_challenge', params.code_challenge],
    ['code_challenge_method', params.code_challenge_method],
    ['csrf', csrf],
  ];
  return html`${fields.filter(([, v]) => v !== undefined).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}" />`)}`;
}

const STYLE = `
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;max-width:34rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#1a1a1a;background:#fff}
h1{font-size:1.5rem}
.card{border:1px solid #888;border-radius:.5rem;padding:1rem 1.25rem;margin:1rem 0}
label{display:block;margin-top:.75rem;font-weight:600}
input[type=text],input[type=password]{width:100%;box-sizing:border-box;padding:.5rem;font-size:1rem;border:1px solid #555;border-radius:.25rem}
button{font-size:1rem;padding:.5rem 1.25rem;margin:.75rem .5rem 0 0;border-radius:.25rem;border:2px solid #1a1a1a;cursor:pointer}
button.primary{background:#0b5394;color:#fff;border-color:#0b5394}
button.link{background:none;border:none;padding:0;margin:0;color:#0b5394;text-decoration:underline}
:focus-visible{outline:3px solid #e69138;outline-offset:2px}
.error{border:2px solid #990000;background:#fdecea;padding:.75rem;border-radius:.25rem}
.muted{color:#444}
code{overflow-wrap:anywhere}
`;

function page(title: string, body: SafeHtml): string {
  return html`<!DOCTYPE html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <title>${title}</title>
        <style>
          ${new SafeHtml(STYLE)}
        </style>
      </head>
      <body>
        <main>${body}</main>
      </body>
    </html> `.markup;
}

export interface ClientSummary {
  name: string;
  ownerName: string;
  permissions: readonly Permission[];
  redirectUri: string;
}

function clientCard(client: ClientSummary): SafeHtml {
  return html`<section class="card" aria-labelledby="client-heading">
    <h2 id="client-heading">${client.name}</h2>
    <p class="muted">Registered by <strong>${client.ownerName}</strong>. After your answer you go back to <code>${client.redirectUri}</code>.</p>
    <p>It asks to:</p>
    ${
      client.permissions.length === 0
        ? html`<p>Read what any visitor may read, with your account's name (no other permission).</p>`
        : html`<ul>
            ${client.permissions.map((p) => html`<li>${PERMISSION_TEXT[p]} <span class="muted">(<code>${p}</code>)</span></li>`)}
          </ul>`
    }
  </section>`;
}

/** The login step: shown when no one is logged in (or after "switch account"). */
export function loginPage(input: {
  client: ClientSummary;
  params: AuthorizationParams;
  csrf: string;
  error?: string;
  username?: string;
  captcha: boolean;
}): string {
  const { client, params, csrf, error, username, captcha } = input;
  return page(
    `Log in to authorize ${client.name}`,
    html`<h1>Log in to authorize ${client.name}</h1>
      ${error ? html`<p class="error" role="alert" id="login-error">${error}</p>` : null} ${clientCard(client)}
      <form method="post" action="/api/v1/oauth/authorize/login" aria-labelledby="login-heading">
        <h2 id="login-heading">Log in</h2>
        ${hiddenFields(params, csrf)}
        <label for="username">Username</label>
        <input
          type="text"
          id="username"
          name="username"
          autocomplete="username"
          required
          autofocus
          value="${username ?? ''}"
          ${error ? html` aria-describedby="login-error"` : null}
        />
        <label for="password">Password</label>
        <input type="password" id="password" name="password" autocomplete="current-password" required />
        ${captcha ? html`<label for="captcha">Captcha answer</label> <input type="text" id="captcha" name="captcha" autocomplete="off" required />` : null}
        <button type="submit" class="primary">Log in</button>
      </form>
      <form method="post" action="/api/v1/oauth/authorize/decision">
        ${hiddenFields(params, csrf)}
        <button type="submit" name="decision" value="deny">Cancel and go back to ${client.name}</button>
      </form>`,
  );
}

/** The consent step: who is approving, what the client asks for, Approve and Deny. */
export function consentPage(input: { client: ClientSummary; params: AuthorizationParams; csrf: string; username: string }): string {
  const { client, params, csrf, username } = input;
  return page(
    `Authorize ${client.name}?`,
    html`<h1>Authorize ${client.name}?</h1>
      <p id="account">You are logged in as <strong>${username}</strong>.</p>
      <form method="post" action="/api/v1/oauth/authorize/switch-account">
        ${hiddenFields(params, csrf)}
        <button type="submit" class="link">Not ${username}? Log in with another account</button>
      </form>
      ${clientCard(client)}
      <form method="post" action="/api/v1/oauth/authorize/decision" aria-describedby="account">
        ${hiddenFields(params, csrf)}
        <p>
          Allow <strong>${client.name}</strong> to use your account <strong>${username}</strong> as listed above? You can revoke its key later in your API
          tokens.
        </p>
        <button type="submit" class="primary" name="decision" value="approve">Approve</button>
        <button type="submit" name="decision" value="deny">Deny</button>
      </form>`,
  );
}

/** A request the page cannot act on; never redirects (RFC 6749 4.1.2.1, RFC 9700 4.11). */
export function errorPage(title: string, message: string): string {
  return page(
    title,
    html`<h1>${title}</h1>
      <p class="error" role="alert">${message}</p>
      <p>Go back to the application you came from and try again. If this keeps happening, tell its author.</p>`,
  );
}
