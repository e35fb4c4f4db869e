import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';

/**
 * How errors on some paths are answered when their clients read another shape than the API's:
 * Tachi's score hooks (`{success: false, error}`, USC's always-200 `{statusCode, description}`, …).
 * The exception filter uses the first shape whose prefix starts the request's path.
 */
export interface ErrorShape {
  /** A path under the API prefix, e.g. '/ir/fervidex/'; requests to /ir/… and /api/v1/ir/… both match. */
  pathPrefix: string;
  render(status: number, message: string): { status: number; body: unknown };
}

/** The ErrorShape list the application registers (import formats contribute theirs). */
export const ERROR_SHAPES = Symbol('ERROR_SHAPES');

const RAW_RESPONSE = 'response:raw';

/** The OpenAPI extension marking a RawResponse operation (the document's tachi envelope leaves it out). */
export const RAW_RESPONSE_EXTENSION = 'x-raw-response';

/**
 * The route answers with exactly the body it returns: API_PROFILE=tachi does not wrap it (score
 * hooks build their clients' shape themselves; downloads are files).
 */
export const RawResponse = () => applyDecorators(SetMetadata(RAW_RESPONSE, true), ApiExtension(RAW_RESPONSE_EXTENSION, true));

export { RAW_RESPONSE };
