import { Module, RequestMethod, type DynamicModule } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { LoggerModule } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import type { AppConfig } from '../../config/app-config.js';
import { redactForLog } from './private-keys.js';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** Bodies are logged redacted, and only when small: an import can be megabytes. */
const MAX_LOGGED_BODY_BYTES = 4096;

/**
 * Runs when the response finishes, so it must not throw on any body: the size comes from
 * Content-Length (never from serialising the body), and redactForLog bounds depth and length.
 */
function loggableBody(req: IncomingMessage, body: object): unknown {
  const bytes = Number(req.headers['content-length']);
  return Number.isFinite(bytes) && bytes > MAX_LOGGED_BODY_BYTES ? { omitted: `${bytes} bytes` } : redactForLog(body);
}

function withDestination<T>(options: T, destination?: DestinationStream): T | [T, DestinationStream] {
  return destination ? [options, destination] : options;
}

/** JSON request logs with request ids (taken from X-Request-Id when sane, echoed back). Headers are never logged. */
@Module({})
export class RequestLoggingModule {
  static forConfig(config: AppConfig, destination?: DestinationStream): DynamicModule {
    return {
      module: RequestLoggingModule,
      imports: [
        LoggerModule.forRoot({
          forRoutes: [{ path: '{*path}', method: RequestMethod.ALL }],
          pinoHttp: withDestination(
            {
              level: config.LOG_LEVEL,
              genReqId: (req: IncomingMessage, res: ServerResponse) => {
                const given = req.headers['x-request-id'];
                const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
                res.setHeader('X-Request-Id', id);
                return id;
              },
              customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
              // pino-http makes a child logger of whatever this returns, {} included, on every request:
              // nothing is returned when there is nothing to add (pino-http skips a falsy value).
              customProps: ((req: IncomingMessage & { body?: unknown }) =>
                req.method !== 'GET' && req.body && typeof req.body === 'object' ? { body: loggableBody(req, req.body) } : undefined) as (
                req: IncomingMessage,
              ) => object,
              serializers: {
                req: (req: { id: unknown; method: string; url: string; remoteAddress?: string }) => ({
                  id: req.id,
                  method: req.method,
                  url: req.url,
                  remoteAddress: req.remoteAddress,
                }),
                res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
              },
            },
            destination,
          ),
        }),
      ],
    };
  }
}
