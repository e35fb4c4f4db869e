import { nulIn, nulRejection } from './nul-bytes.js';
import {
  applyDecorators,
  BadRequestException,
  HttpException,
  Inject,
  Injectable,
  mixin,
  PayloadTooLargeException,
  UseInterceptors,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
  type Type,
} from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import type { Request } from 'express';
import type { Observable } from 'rxjs';
import { formatBytes, formatLimit } from '../common/bytes.js';
import { AppConfig } from '../config/app-config.js';
import { MULTIPART_TYPE, UploadField } from './body-type.js';

/** The largest file of an upload: from the configuration (naming its setting in messages), or fixed. */
export interface UploadLimit {
  bytes: (config: AppConfig) => number;
  /** The environment variable that sets it, when one does. */
  setting?: string;
}

/** Text fields an upload may carry besides its file. */
const MAX_FIELDS = 10;

interface MulterError {
  code?: string;
  field?: string;
  message?: string;
}

/** What an upload route expects, for the messages. */
interface Expected {
  field: string;
  bytes: number;
  setting?: string;
}

/** The upload's size as announced (Content-Length), which the file is most of, when known. */
function announced(req: Request): string {
  const length = Number(req.headers['content-length']);
  return Number.isFinite(length) && length > 0 ? `, and this upload is ${formatBytes(length)}` : '';
}

/** multer's error (kept by Nest as the cause of its exception) in words that name the field and the limit. */
export function uploadError(err: unknown, req: Request, expected: Expected): unknown {
  const cause = (err instanceof HttpException ? err.cause : err) as MulterError | undefined;
  const code = cause?.code;
  const { field } = expected;
  const one = `send one file, in field '${field}'`;
  switch (code) {
    case 'LIMIT_FILE_SIZE':
      return new PayloadTooLargeException(
        `The file in field '${cause?.field ?? field}' is too large: the limit is ${formatLimit(expected.bytes, expected.setting)}${announced(req)}.`,
      );
    case 'LIMIT_UNEXPECTED_FILE':
      return new BadRequestException(
        cause?.field && cause.field !== field ? `Unexpected file field '${cause.field}': ${one}.` : `Too many files in field '${field}': ${one}.`,
      );
    case 'LIMIT_FILE_COUNT':
      return new BadRequestException(`Too many files: ${one}.`);
    case 'LIMIT_FIELD_COUNT':
      return new BadRequestException(`Too many form fields: at most ${MAX_FIELDS} besides the file in field '${field}'.`);
    case 'LIMIT_PART_COUNT':
      return new BadRequestException(`Too many parts in the ${MULTIPART_TYPE} body: ${one}, with at most ${MAX_FIELDS} form fields.`);
    case 'LIMIT_FIELD_KEY':
      return new BadRequestException('A form field name is too long.');
    case 'LIMIT_FIELD_VALUE':
      return new BadRequestException(`The form field '${cause?.field ?? '?'}' is too long.`);
    case 'MISSING_FIELD_NAME':
      return new BadRequestException(`A part of the ${MULTIPART_TYPE} body has no field name: ${one}.`);
    case 'LIMIT_FIELD_NESTING':
    case 'LIMIT_FIELD_ARRAY_INDEX':
    case 'INVALID_FIELD_NAME':
      return new BadRequestException(`Invalid form field name${cause?.field ? ` '${cause.field}'` : ''}: ${cause?.message ?? code}.`);
  }
  if (err instanceof HttpException && err.getStatus() === 400) {
    // busboy: a malformed body (no boundary, a cut-off part).
    return new BadRequestException(`The ${MULTIPART_TYPE} body cannot be read (${err.message}): ${one}.`);
  }
  return err;
}

/**
 * A route's file upload: one file in a multipart/form-data field, at most `limit` bytes, with up
 * to 10 text fields. Nest's FileInterceptor reads it; its errors become messages that name the
 * field and the limit ("The file in field 'pfp' is too large: the limit is 4 MiB
 * (IMAGE_UPLOAD_LIMIT_BYTES=4194304), and this upload is 5.2 MiB."), and a text field sent where the
 * file belongs is said to be one. The field also tells BodyTypeGuard that the route takes
 * multipart/form-data (a body in another media type gets a 415 naming the field). Whether a file
 * is required is the route's to say; its OpenAPI form is its own (@ApiConsumes, @ApiBody).
 */
export function FileUpload(field: string, limit: UploadLimit) {
  @Injectable()
  class UploadInterceptor implements NestInterceptor {
    private readonly inner: NestInterceptor;
    private readonly expected: Expected;

    constructor(@Inject(AppConfig) config: AppConfig) {
      const bytes = limit.bytes(config);
      this.expected = { field, bytes, setting: limit.setting };
      const Inner: Type<NestInterceptor> = FileInterceptor(field, { limits: { fileSize: bytes, files: 1, fields: MAX_FIELDS } });
      this.inner = new Inner();
    }

    async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
      const req = context.switchToHttp().getRequest<Request & { file?: unknown }>();
      let handled: Observable<unknown>;
      try {
        handled = (await this.inner.intercept(context, next)) as Observable<unknown>;
      } catch (err) {
        throw uploadError(err, req, this.expected);
      }
      // The text fields are parsed here, after rejectNulBytes looked at the request.
      const nul = nulIn(req.body, 'The request body');
      if (nul) throw nulRejection(nul);
      const text: unknown = (req.body as Record<string, unknown> | undefined)?.[field];
      if (!req.file && text !== undefined)
        throw new BadRequestException(`The field '${field}' holds text, not a file: attach the file itself (with curl: -F '${field}=@<file>', with the @).`);
      return handled;
    }
  }
  return applyDecorators(UploadField(field), UseInterceptors(mixin(UploadInterceptor)));
}
