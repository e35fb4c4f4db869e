import { Injectable, SetMetadata, UnsupportedMediaTypeException, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum.js';
import { Reflector } from '@nestjs/core';
import { DECORATORS } from '@nestjs/swagger';
import type { Request } from 'express';

export const JSON_TYPE = 'application/json';
export const FORM_TYPE = 'application/x-www-form-urlencoded';
export const MULTIPART_TYPE = 'multipart/form-data';

/** The multipart field a FileUpload route takes its file from (file-upload.ts sets it). */
export const UPLOAD_FIELD = 'body:upload-field';
export const UploadField = (field: string) => SetMetadata(UPLOAD_FIELD, field);

/** The request's media type (`application/json`), lower case and without parameters; undefined without a Content-Type. */
export function mediaTypeOf(req: Pick<Request, 'headers'>): string | undefined {
  const header = req.headers['content-type'];
  const type = header?.split(';')[0].trim().toLowerCase();
  return type || undefined;
}

/** Whether the request carries body bytes: a Content-Length above 0, or a chunked body (whose length is unknown). */
export function requestHasBody(req: Pick<Request, 'headers'>): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = Number(req.headers['content-length']);
  return Number.isFinite(length) && length > 0;
}

/** A form body that is really JSON (`curl -d '{"a":1}'` without a JSON Content-Type): its first key starts with `{` or `[`. */
export function formHoldsJson(body: unknown): boolean {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return false;
  const [first] = Object.keys(body);
  return first !== undefined && /^\s*[[{]/.test(first);
}

const CURL_FORM_HINT = "curl -d sends that unless you add -H 'Content-Type: application/json'";

/** The request's media type, or "a body without a Content-Type"; a form sent to a JSON route says how curl came to send one. */
function receivedType(req: Pick<Request, 'headers'>, jsonRoute: boolean): string {
  const type = mediaTypeOf(req);
  if (!type) return 'a body without a Content-Type';
  return type === FORM_TYPE && jsonRoute ? `${type}: ${CURL_FORM_HINT}` : type;
}

/** What a route reads from the request body: its media types, and the field of its file upload. */
interface BodyRoute {
  types: string[];
  uploadField?: string;
}

/**
 * Refuses (415) a request whose body the route cannot read: a body with a media type the route
 * does not take, e.g. JSON sent as a form by `curl -d`, as text/plain by a script, or with no
 * Content-Type, which no parser reads, so that the route would otherwise answer with confusing
 * field errors ("username must be a string"). A route takes JSON unless it declares otherwise
 * with @ApiConsumes (the OAuth2 token route also takes forms) or is an upload (FileUpload:
 * multipart/form-data).
 * Routes that read no body, and requests without one, pass. A global guard, registered after
 * AccessGuard: a guest still gets 401 and an unknown user 404 first, and it runs before the
 * route's own guards (the login guard validates the body).
 */
@Injectable()
export class BodyTypeGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const req = context.switchToHttp().getRequest<Request>();
    if (!requestHasBody(req)) return true;
    const route = this.bodyRoute(context);
    if (!route) return true;
    const type = mediaTypeOf(req);
    if (type && route.types.includes(type)) return true;
    throw new UnsupportedMediaTypeException(`${expectedBody(route)} (received ${receivedType(req, route.types.includes(JSON_TYPE))}).`);
  }

  /** The route's body, or undefined when it reads none (no @Body parameter and no declared media type). */
  private bodyRoute(context: ExecutionContext): BodyRoute | undefined {
    const targets = [context.getHandler(), context.getClass()];
    const consumes = this.reflector.getAllAndOverride<string[] | undefined>(DECORATORS.API_CONSUMES, targets);
    const uploadField = this.reflector.getAllAndOverride<string | undefined>(UPLOAD_FIELD, targets);
    if (uploadField) return { types: [MULTIPART_TYPE], uploadField };
    if (consumes?.length) return { types: consumes.map((t) => t.toLowerCase()) };
    const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, context.getClass(), context.getHandler().name) ?? {}) as Record<string, unknown>;
    // Nest keys a handler's parameter decorators `<RouteParamtypes>:<index>`: a @Body() parameter reads the body.
    return Object.keys(args).some((key) => key.startsWith(`${RouteParamtypes.BODY}:`)) ? { types: [JSON_TYPE] } : undefined;
  }
}

function expectedBody({ types, uploadField }: BodyRoute): string {
  if (types.includes(MULTIPART_TYPE)) {
    const field = uploadField ?? 'file';
    return `Send the body as ${MULTIPART_TYPE} with the file in field '${field}', e.g. curl -F '${field}=@<file>'`;
  }
  const json = types.includes(JSON_TYPE);
  const form = types.includes(FORM_TYPE);
  if (json && form) return `Send the body as JSON with Content-Type: ${JSON_TYPE}, or as a form (Content-Type: ${FORM_TYPE})`;
  if (form) return `Send the body as a form with Content-Type: ${FORM_TYPE}`;
  if (json || types.length === 0) return `Send the body as JSON with Content-Type: ${JSON_TYPE}`;
  return `Send the body with Content-Type: ${types.join(' or ')}`;
}

/**
 * A body validation message made to name the body's problem when the content type is the cause:
 * a request without a body, or a form body on a route that takes forms and JSON (a JSON document
 * posted as a form is said to be one). Bodies in other media types never reach validation
 * (BodyTypeGuard refuses them).
 */
export function explainBodyValidation(message: string, req: Pick<Request, 'headers' | 'body'>): string {
  if (!requestHasBody(req)) return `${message} (the request has no body: send the fields as JSON with Content-Type: ${JSON_TYPE})`;
  const type = mediaTypeOf(req);
  if (type === JSON_TYPE) return message;
  if (type === FORM_TYPE && formHoldsJson(req.body))
    return `The body is JSON but was sent as ${FORM_TYPE} (${CURL_FORM_HINT}): send it with Content-Type: ${JSON_TYPE}.`;
  return `${message} (the body was sent ${type ? `as ${type}` : 'without a Content-Type'})`;
}
