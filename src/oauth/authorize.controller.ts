import {
  applyDecorators,
  Catch,
  Controller,
  Get,
  HttpException,
  HttpStatus,
  Logger,
  Post,
  Req,
  Res,
  UseFilters,
  type ArgumentsHost,
  type ExceptionFilter,
} from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { parseCookie, stringifySetCookie } from 'cookie';
import type { Response } from 'express';
import { AuthService } from '../auth/auth.service.js';
import { endSession, startSession } from '../auth/start-session.js';
import { SESSION_COOKIE } from '../http/auth/access.decorators.js';
import { RateLimit } from '../http/rate-limit/rate-limit.decorator.js';
import { RateLimitedException } from '../http/rate-limited.exception.js';
import type { ApiRequest } from '../http/request.js';
import { consentPage, errorPage, loginPage } from './authorize-page.js';
import { AuthorizeService, redirectTo, type Authorization } from './authorize.service.js';
import { OAuthService } from './oauth.service.js';

const CSRF_COOKIE = 'st_oauth_csrf';
const BASE = '/api/v1/oauth/authorize';

/**
 * The browser's CSRF nonce (the first cookie of that name). A value that is not valid
 * percent-encoding comes back as sent: it is no nonce (32 hex digits), so the page issues a new one
 * and a form posted with it is refused (403), never a 500.
 */
function csrfNonce(req: ApiRequest): string | undefined {
  const header = req.headers.cookie;
  return header ? parseCookie(header)[CSRF_COOKIE] : undefined;
}

/** Kept until the browser closes (no Max-Age or Expires), sent to the page's paths alone, out of scripts' reach, and on top-level navigations from other sites but not with their posts (SameSite=Lax). */
function setCsrfNonce(res: Response, nonce: string, secure: boolean): void {
  res.append('Set-Cookie', stringifySetCookie(CSRF_COOKIE, nonce, { httpOnly: true, sameSite: 'lax', secure, path: BASE }));
}

function sendHtml(res: Response, status: number, body: string): void {
  // The page loads nothing and runs no script, and may not be framed (clickjacking). No form-action:
  // browsers apply it to the redirect after the post too, which goes to the client's redirect URI.
  res.status(status).set({
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
  });
  res.send(body);
}

/** Every error of the page's routes (guards' 429, a bad form) as an HTML page; JSON would mean nothing to the player. */
@Catch()
export class HtmlErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('AuthorizePage');

  catch(exception: unknown, host: ArgumentsHost) {
    const res = host.switchToHttp().getResponse<Response>();
    if (res.headersSent) return;
    if (exception instanceof RateLimitedException) res.setHeader('Retry-After', String(exception.retryAfterSeconds));
    if (exception instanceof HttpException) {
      const body = exception.getResponse();
      const message = typeof body === 'string' ? body : String((body as { message?: unknown }).message ?? exception.message);
      return sendHtml(res, exception.getStatus(), errorPage('This request cannot be completed', message));
    }
    this.logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
    sendHtml(res, HttpStatus.INTERNAL_SERVER_ERROR, errorPage('Something went wrong', 'The server could not complete this request. Try again shortly.'));
  }
}

type Form = Record<string, unknown>;

const applyAll = (decorators: MethodDecorator[]) => applyDecorators(...decorators);

const HTML = { 'text/html': { schema: { type: 'string' } } };
/** The page's answers are HTML, its errors too (413 from the body parser excepted: it answers before the page's routes). */
const htmlErrors = (...statuses: number[]) => statuses.map((status) => ApiResponse({ status, description: ERROR_DESCRIPTIONS[status], content: HTML }));
const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'An error page: unknown client, redirect_uri not the registered one, or a malformed form. Never a redirect.',
  401: 'The login form again, with the error (wrong credentials, or the session ended before the answer).',
  403: 'An error page: the form is not from this page as shown (CSRF token, changed parameters, another site), or the account is banned.',
  429: 'An error page: rate limited (Retry-After).',
};
const AUTHORIZATION_FIELDS = {
  client_id: { type: 'string' },
  redirect_uri: { type: 'string', description: "Exactly the client's registered redirectUri." },
  state: { type: 'string', maxLength: 500 },
  code_challenge: { type: 'string', description: 'PKCE: BASE64URL(SHA256(code_verifier)), 43 characters.' },
  code_challenge_method: { type: 'string', enum: ['S256'] },
  csrf: { type: 'string', description: 'The token the page put in its forms.' },
};
const formBody = (extra: Record<string, object>, required: string[]) =>
  ApiBody({
    schema: { type: 'object', required: ['client_id', 'redirect_uri', 'state', 'csrf', ...required], properties: { ...AUTHORIZATION_FIELDS, ...extra } },
  });

/**
 * The OAuth2 authorization page (RFC 6749 4.1 with PKCE): server-rendered HTML that works without
 * JavaScript. GET shows the login form or the consent form; the forms post back here.
 */
@ApiTags('oauth')
@ApiProduces('text/html')
@Controller('oauth/authorize')
@UseFilters(HtmlErrorFilter)
export class AuthorizeController {
  constructor(
    private readonly authorize: AuthorizeService,
    private readonly oauth: OAuthService,
    private readonly auth: AuthService,
  ) {}

  @Get()
  @ApiQuery({ name: 'client_id', required: true })
  @ApiQuery({ name: 'redirect_uri', required: true, description: "Exactly the client's registered redirectUri." })
  @ApiQuery({ name: 'state', required: true, description: 'Returned unchanged; at most 500 characters.' })
  @ApiQuery({ name: 'code_challenge', required: false, description: 'PKCE (RFC 7636): BASE64URL(SHA256(code_verifier)).' })
  @ApiQuery({ name: 'code_challenge_method', required: false, enum: ['S256'] })
  @ApiQuery({ name: 'response_type', required: false, enum: ['code'] })
  @ApiResponse({ status: 200, description: 'The login form, or the consent form for the logged-in player.', content: HTML })
  @ApiResponse({ status: 303, description: 'To the redirect_uri with error=invalid_request (or unsupported_response_type) and state.' })
  @applyAll(htmlErrors(400, 429))
  async show(@Req() req: ApiRequest, @Res() res: Response): Promise<void> {
    const checked = await this.authorize.check(req.query as Form);
    if (checked.kind === 'page-error') return sendHtml(res, 400, errorPage('This authorization request is not valid', checked.message));
    if (checked.kind === 'redirect-error') return res.redirect(303, checked.location);
    await this.render(req, res, checked.authorization, 200);
  }

  @Post('login')
  @RateLimit('login')
  @ApiConsumes('application/x-www-form-urlencoded')
  @formBody({ username: { type: 'string' }, password: { type: 'string' }, captcha: { type: 'string' } }, ['username', 'password'])
  @ApiResponse({ status: 303, description: 'Logged in: back to the authorization page (the consent form).' })
  @applyAll(htmlErrors(400, 401, 403, 429))
  async login(@Req() req: ApiRequest, @Res() res: Response): Promise<void> {
    const form = (req.body ?? {}) as Form;
    const authorization = await this.checkForm(req, res, form);
    if (!authorization) return;
    const username = typeof form.username === 'string' ? form.username : '';
    const password = typeof form.password === 'string' ? form.password : '';
    try {
      if (!username || !password) throw new HttpException('Enter your username and password.', HttpStatus.BAD_REQUEST);
      const user = await this.auth.passwordLogin(req, username, password, typeof form.captcha === 'string' ? form.captcha : undefined);
      await startSession(req, user.id);
    } catch (err) {
      if (!(err instanceof HttpException) || err instanceof RateLimitedException || err.getStatus() >= 500) throw err;
      return this.render(req, res, authorization, err.getStatus(), { error: err.message, username });
    }
    res.redirect(303, `${BASE}?${new URLSearchParams(Object.entries(authorization.params) as [string, string][]).toString()}`);
  }

  /** "Not you?": ends the session and shows the login form again, for the same authorization. */
  @Post('switch-account')
  @ApiConsumes('application/x-www-form-urlencoded')
  @formBody({}, [])
  @ApiResponse({ status: 200, description: 'Logged out: the login form, for the same authorization.', content: HTML })
  @applyAll(htmlErrors(400, 403, 429))
  async switchAccount(@Req() req: ApiRequest, @Res() res: Response): Promise<void> {
    const authorization = await this.checkForm(req, res, (req.body ?? {}) as Form);
    if (!authorization) return;
    await endSession(req);
    res.clearCookie(SESSION_COOKIE, { path: '/' });
    req.auth = { kind: 'guest', user: null, permissions: [] };
    await this.render(req, res, authorization, 200);
  }

  @Post('decision')
  @RateLimit('create-code')
  @ApiConsumes('application/x-www-form-urlencoded')
  @formBody({ decision: { type: 'string', enum: ['approve', 'deny'] } }, ['decision'])
  @ApiResponse({ status: 303, description: 'To the redirect_uri with code and state (approve), or error=access_denied and state (deny).' })
  @applyAll(htmlErrors(400, 401, 403, 429))
  async decide(@Req() req: ApiRequest, @Res() res: Response): Promise<void> {
    const form = (req.body ?? {}) as Form;
    const authorization = await this.checkForm(req, res, form);
    if (!authorization) return;
    const { params } = authorization;
    if (form.decision === 'deny') {
      return res.redirect(
        303,
        redirectTo(params.redirect_uri, { error: 'access_denied', error_description: 'The user denied the request.', state: params.state }),
      );
    }
    if (form.decision !== 'approve') throw new HttpException("decision must be 'approve' or 'deny'.", HttpStatus.BAD_REQUEST);
    const user = req.auth.kind === 'session' ? req.auth.user : null;
    if (!user) return this.render(req, res, authorization, 401, { error: 'Your session has ended: log in again to answer.' });
    const { code } = await this.oauth.createCode(user.id, authorization.client.clientID, params.code_challenge ?? null);
    res.redirect(303, redirectTo(params.redirect_uri, { code, state: params.state }));
  }

  /** Re-checks the posted authorization (client, exact redirect_uri, PKCE) and the CSRF token; answers the error itself when either fails. */
  private async checkForm(req: ApiRequest, res: Response, form: Form): Promise<Authorization | undefined> {
    // Browsers say where a form came from; a post from another site is refused before anything else.
    if (req.headers['sec-fetch-site'] === 'cross-site') {
      sendHtml(res, 403, errorPage('This form was sent from another site', 'Open the authorization page again from the application.'));
      return undefined;
    }
    const checked = await this.authorize.check(form);
    if (checked.kind !== 'ok') {
      sendHtml(
        res,
        400,
        errorPage('This authorization request is not valid', checked.kind === 'page-error' ? checked.message : 'The form is missing a field.'),
      );
      return undefined;
    }
    if (!(await this.authorize.csrfValid(csrfNonce(req), checked.authorization.params, form.csrf))) {
      sendHtml(
        res,
        403,
        errorPage(
          'This form has expired or was changed',
          'The form did not come from this authorization page as it was shown (or your browser blocks its cookie). Open it again from the application.',
        ),
      );
      return undefined;
    }
    return checked.authorization;
  }

  private async render(
    req: ApiRequest,
    res: Response,
    authorization: Authorization,
    status: number,
    extra: { error?: string; username?: string } = {},
  ): Promise<void> {
    let nonce = csrfNonce(req);
    if (!nonce || !/^[0-9a-f]{32}$/.test(nonce)) {
      nonce = this.authorize.newNonce();
      setCsrfNonce(res, nonce, this.authorize.secureCookies);
    }
    const csrf = await this.authorize.csrfToken(nonce, authorization.params);
    const user = req.auth.kind === 'session' ? req.auth.user : null;
    const body = user
      ? consentPage({ client: authorization.summary, params: authorization.params, csrf, username: user.username })
      : loginPage({ client: authorization.summary, params: authorization.params, csrf, captcha: this.authorize.captchaEnabled, ...extra });
    sendHtml(res, status, body);
  }
}
