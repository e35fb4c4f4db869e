import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import helmet from 'helmet';
import { Logger } from 'nestjs-pino';
import { AppModule, type AppOptions } from './app.module.js';
import { documentErrors } from './http/openapi-errors.js';
import { ERROR_SHAPES, type ErrorShape } from './http/response-shapes.js';
import { SERVER_VERSION } from './status/version.js';

export const API_PREFIX = 'api/v1';

function trustProxy(value: string): boolean | number | string {
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}

/** Builds the HTTP application (not yet listening). main.ts and the e2e tests both use it. */
export async function createApp(options: AppOptions): Promise<INestApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.register(options), { bodyParser: false, bufferLogs: true });
  app.useLogger(app.get(Logger));
  app.set('trust proxy', trustProxy(options.config.TRUST_PROXY));
  app.set('query parser', 'simple');
  app.use(helmet({ contentSecurityPolicy: false, crossOriginResourcePolicy: { policy: 'cross-origin' } }));
  app.enableCors({
    origin: '*',
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['Content-Type', 'Authorization', 'X-User-Intent', 'X-Request-Id'],
    exposedHeaders: ['Retry-After', 'X-Request-Id'],
  });
  // Tachi's score hooks post to /ir/... without the API prefix; serve those paths from /api/v1/ir/....
  app.use((req: { url: string }, _res: unknown, next: () => void) => {
    if (req.url.startsWith('/ir/')) req.url = `/${API_PREFIX}${req.url}`;
    next();
  });
  app.setGlobalPrefix(API_PREFIX);

  const document = documentErrors(
    SwaggerModule.createDocument(
      app,
      new DocumentBuilder().setTitle('Score tracking service').setVersion(SERVER_VERSION).addBearerAuth().addCookieAuth('score_tracker_session').build(),
    ),
    app.get<readonly ErrorShape[]>(ERROR_SHAPES).map((shape) => `/${API_PREFIX}${shape.pathPrefix}`),
  );
  SwaggerModule.setup(`${API_PREFIX}/docs`, app, document, { jsonDocumentUrl: `${API_PREFIX}/docs.json` });
  return app;
}
