import { RequestMethod, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { CorsOptionsDelegate } from '@nestjs/common/interfaces/external/cors-options.interface.js';
import type { Express, Request } from 'express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import helmet from 'helmet';
import { Logger } from 'nestjs-pino';
import { AppModule, type AppOptions } from './app.module.js';
import { documentErrors } from './http/openapi-errors.js';
import { earlyResponseHandling } from './http/early-response.js';
import { StartupAtDebugLogger } from './http/logging/startup-at-debug.logger.js';
import { installJsonResponse } from './http/json-response.js';
import { documentProfile, profileModels } from './http/openapi-profile.js';
import { ERROR_SHAPES, type ErrorShape } from './http/response-shapes.js';
import { SERVER_VERSION } from './status/version.js';
import { serveHomePage } from './home/home-page.js';
import { serveCdn } from './cdn/cdn.js';
import { IMPORT_INPUT_ROUTE } from './import-inputs/import-inputs.controller.js';
import { apiNotFound } from './http/api-not-found.js';
import { uploadsDir } from './storage/storage.service.js';
import { serveWebClient } from './web-client/web-client.js';

export const API_PREFIX = 'api/v1';

function trustProxy(value: string): boolean | number | string {
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}

/**
 * CORS: any origin may call the API without credentials (`Access-Control-Allow-Origin: *`, so a
 * browser sends no cookie); the origins of CORS_ORIGINS get their own origin back with
 * `Access-Control-Allow-Credentials: true`, so their pages may use the session cookie.
 */
export function corsOptions(credentialedOrigins: readonly string[]): CorsOptionsDelegate<Request> {
  const allowed = new Set(credentialedOrigins);
  const common = {
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['Content-Type', 'Authorization', 'X-User-Intent', 'X-Request-Id'],
    exposedHeaders: ['Retry-After', 'X-Request-Id'],
  };
  return (req, callback) => {
    const origin = req.headers.origin;
    const credentialed = origin !== undefined && allowed.has(origin);
    callback(null, credentialed ? { ...common, origin, credentials: true } : { ...common, origin: '*', credentials: false });
  };
}

/** Builds the HTTP application (not yet listening). main.ts and the e2e tests both use it. */
export async function createApp(options: AppOptions): Promise<INestApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.register(options), { bodyParser: false, bufferLogs: true });
  app.useLogger(new StartupAtDebugLogger(app.get(Logger)));
  app.set('trust proxy', trustProxy(options.config.TRUST_PROXY));
  app.set('query parser', 'simple');
  installJsonResponse(app.getHttpAdapter().getInstance());
  // First, so that it sees every answer, including those given before the body is read.
  app.use(earlyResponseHandling());
  app.use(helmet({ contentSecurityPolicy: false, crossOriginResourcePolicy: { policy: 'cross-origin' } }));
  if (options.config.corsOrigins.length > 0) {
    // The CORS headers depend on Origin: caches must not serve one origin's answer to another.
    app.use((_req: unknown, res: { vary: (field: string) => void }, next: () => void) => {
      res.vary('Origin');
      next();
    });
  }
  app.enableCors(corsOptions(options.config.corsOrigins));
  // Tachi's score hooks post to /ir/... without the API prefix; serve those paths from /api/v1/ir/....
  app.use((req: { url: string }, _res: unknown, next: () => void) => {
    if (req.url.startsWith('/ir/')) req.url = `/${API_PREFIX}${req.url}`;
    next();
  });
  const express = app.getHttpAdapter().getInstance() as Express;
  apiNotFound(express, API_PREFIX, options.config.API_ENVELOPE);
  // Outside the API prefix: default pictures and stored ones under /cdn (where Tachi's web client looks for them).
  serveCdn(express, uploadsDir(options.config));
  // At `/`: the web client of WEB_CLIENT_DIR (every path outside /api and /cdn), or a page for a person who opens the server's address.
  const webClientDir = options.config.webClientDir;
  if (webClientDir) serveWebClient(express, webClientDir);
  else express.get('/', serveHomePage);
  app.setGlobalPrefix(API_PREFIX, { exclude: [{ path: IMPORT_INPUT_ROUTE, method: RequestMethod.GET }] });

  const rawPrefixes = app.get<readonly ErrorShape[]>(ERROR_SHAPES).map((shape) => `/${API_PREFIX}${shape.pathPrefix}`);
  const profile = options.config.API_PROFILE ?? 'spec';
  const document = documentProfile(
    documentErrors(
      SwaggerModule.createDocument(
        app,
        new DocumentBuilder()
          .setTitle('Score tracking service')
          .setVersion(SERVER_VERSION)
          .addBearerAuth({
            type: 'http',
            bearerFormat: '40 hex characters',
            description: 'An API token: from POST /api/v1/users/{userID}/api-tokens/create, or the OAuth2 exchange POST /api/v1/oauth/token.',
          })
          .addCookieAuth('score_tracker_session', {
            type: 'apiKey',
            description: 'The session cookie that POST /api/v1/auth/login and POST /api/v1/auth/register set.',
          })
          .build(),
        { extraModels: profileModels(profile) },
      ),
      rawPrefixes,
    ),
    profile,
    rawPrefixes,
  );
  SwaggerModule.setup(`${API_PREFIX}/docs`, app, document, { jsonDocumentUrl: `${API_PREFIX}/docs.json` });
  return app;
}
