import { HttpException, HttpStatus, Inject, Logger, Optional, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { Catch } from '@nestjs/common';
import type { Request, Response } from 'express';
import { STATUS_CODES } from 'node:http';
import { formatBytes, formatLimit } from '../common/bytes.js';
import { dependencyUnavailable, storageFull } from '../common/dependency-failure.js';
import { sqlState } from '../common/sql-state.js';
import { explainBodyValidation } from './body-type.js';
import { errorBody, type EnvelopeMode } from './envelope.js';
import { describeJson, LIMIT_SETTING } from './json-body.js';
import { RateLimitedException } from './rate-limited.exception.js';
import { BodyValidationException } from './validation.pipe.js';
import { ERROR_SHAPES, type ErrorShape } from './response-shapes.js';

export const ENVELOPE_MODE = Symbol('ENVELOPE_MODE');

interface ExpressishError {
  status?: number;
  statusCode?: number;
  type?: string;
  code?: string;
  expose?: boolean;
  message?: string;
  /** body-parser: the body's length (when announced) and the limit, on a 413; the text it could not parse, on a 400. */
  length?: number;
  limit?: number;
  body?: unknown;
  /** multer: the field of the part at fault. */
  field?: string;
  [LIMIT_SETTING]?: string;
}

/** body-parser's 413, naming the body's size (when announced) and the limit with its setting. */
function tooLarge(err: ExpressishError): string {
  const limit = typeof err.limit === 'number' ? formatLimit(err.limit, err[LIMIT_SETTING]) : undefined;
  if (limit === undefined) return 'The request body is too large.';
  return typeof err.length === 'number'
    ? `The request body is too large: it is ${formatBytes(err.length)}; the limit is ${limit}.`
    : `The request body is too large: the limit is ${limit}.`;
}

/**
 * body-parser's 400 for a body that is not JSON. In strict mode it also refuses JSON that is
 * neither an object nor an array (`"text"`, `5`), with a parser's message that calls valid JSON
 * invalid: that case says what the body is instead.
 */
function unparsable(err: ExpressishError): string {
  if (typeof err.body === 'string' && !/^\s*[[{]/.test(err.body)) {
    try {
      const value: unknown = JSON.parse(err.body);
      return `The JSON body must be an object (or an array); received ${describeJson(value)}.`;
    } catch {
      // Not JSON at all: the parser's message says where.
    }
  }
  return `Malformed JSON body: ${err.message}`;
}

/** PostgreSQL refuses NUL characters in text (22021) and in jsonb strings (22P05); they can only come from the request. */
const UNSTORABLE_TEXT = new Set(['22021', '22P05']);
/**
 * invalid_text_representation: text PostgreSQL cannot read as its column's type, such as a JSON
 * string with a lone surrogate escape. Bodies are checked first; this catches what slips past.
 */
const UNREADABLE_VALUE = '22P02';

/**
 * An error for the log: its stack, then each cause's message and code (Drizzle wraps the driver's
 * error, whose SQLSTATE or errno says what failed).
 */
export function withCauses(exception: unknown): string {
  const lines = [exception instanceof Error ? (exception.stack ?? exception.message) : String(exception)];
  let e = (exception as { cause?: unknown } | null | undefined)?.cause;
  for (let depth = 0; e && depth < 4; depth++, e = (e as { cause?: unknown }).cause) {
    const { message, code } = e as { message?: unknown; code?: unknown };
    lines.push(
      `caused by: ${typeof message === 'string' ? message : String(e)}${typeof code === 'string' || typeof code === 'number' ? ` (code ${code})` : ''}`,
    );
  }
  return lines.join('\n');
}

/**
 * Turns every error into the response shape of the configured envelope. Client mistakes keep
 * their 4xx (including body-parser and upload errors); only real faults become 500.
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ApiExceptionFilter');

  constructor(
    @Inject(ENVELOPE_MODE) private readonly mode: EnvelopeMode,
    @Optional() @Inject(ERROR_SHAPES) private readonly shapes: readonly ErrorShape[] = [],
  ) {}

  catch(exception: unknown, host: ArgumentsHost) {
    const res = host.switchToHttp().getResponse<Response>();
    const req = host.switchToHttp().getRequest<Request | undefined>();
    const described = this.describe(exception);
    const { status } = described;
    const message = exception instanceof BodyValidationException && req ? explainBodyValidation(described.message, req) : described.message;
    if (status >= 500) this.logger.error(withCauses(exception));
    if (res.headersSent) return;
    if (exception instanceof RateLimitedException) res.setHeader('Retry-After', String(exception.retryAfterSeconds));
    // A dependency that is down (or the process not ready) is expected back shortly.
    else if (status === HttpStatus.SERVICE_UNAVAILABLE && !res.getHeader('Retry-After')) res.setHeader('Retry-After', '5');
    const shape = this.shapeFor(req);
    if (shape) {
      const shaped = shape.render(status, message);
      return void res.status(shaped.status).json(shaped.body);
    }
    res.status(status).json(errorBody(this.mode, status, STATUS_CODES[status] ?? 'Error', message));
  }

  private shapeFor(req: Request | undefined): ErrorShape | undefined {
    if (!this.shapes.length || !req) return undefined;
    const path = (req.originalUrl ?? req.url ?? '').replace(/^\/api\/v1(?=\/)/, '');
    return this.shapes.find((s) => path.startsWith(s.pathPrefix));
  }

  private describe(exception: unknown): { status: number; message: string } {
    if (exception instanceof HttpException) {
      const response = exception.getResponse();
      let message = exception.message;
      if (typeof response === 'object' && response !== null && 'message' in response) {
        const m = (response as { message: unknown }).message;
        message = Array.isArray(m) ? m.join('; ') : String(m);
      } else if (typeof response === 'string') {
        message = response;
      }
      return { status: exception.getStatus(), message };
    }
    const err = (exception ?? {}) as ExpressishError;
    if (err.type === 'entity.parse.failed') return { status: 400, message: unparsable(err) };
    if (err.type === 'entity.too.large') return { status: 413, message: tooLarge(err) };
    // Uploads go through FileUpload (file-upload.ts), which words multer's errors; these are a fallback.
    const inField = err.field ? ` (field '${err.field}')` : '';
    if (err.code === 'LIMIT_FILE_SIZE') return { status: 413, message: `The uploaded file is too large${inField}.` };
    if (typeof err.code === 'string' && err.code.startsWith('LIMIT_')) return { status: 400, message: `Invalid upload: ${err.message}${inField}.` };
    const state = sqlState(exception) ?? '';
    if (UNSTORABLE_TEXT.has(state)) return { status: 400, message: 'The request contains a NUL character, which is not allowed.' };
    if (state === UNREADABLE_VALUE)
      return { status: 400, message: 'The request contains a value the database cannot read (for example text with a lone surrogate).' };
    if (storageFull(exception))
      return {
        status: HttpStatus.SERVICE_UNAVAILABLE,
        message: "The service cannot save anything right now: its database's disk is full. Nothing was saved; try again later.",
      };
    if (dependencyUnavailable(exception))
      return {
        status: HttpStatus.SERVICE_UNAVAILABLE,
        message: 'The service is unavailable right now: its database or Redis did not answer. Try again shortly.',
      };
    const status = err.status ?? err.statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500)
      return { status, message: err.expose !== false && err.message ? err.message : (STATUS_CODES[status] ?? 'Bad request') };
    return { status: HttpStatus.INTERNAL_SERVER_ERROR, message: 'An internal server error occurred.' };
  }
}
