import { applyDecorators } from '@nestjs/common';
import { ApiResponse, getSchemaPath, type OpenAPIObject } from '@nestjs/swagger';
import { documentPathParameters } from './openapi-params.js';

/** The error body of the API's answers: the spec's here; under API_PROFILE=tachi documentProfile (openapi-profile.ts) makes it `{success: false, description}`. */
export const ERROR_RESPONSE = 'ErrorResponse';

const ERROR_SCHEMA = {
  type: 'object',
  required: ['statusCode', 'error', 'message'],
  properties: {
    statusCode: { type: 'integer' },
    error: { type: 'string', description: "The status's name, e.g. Not Found." },
    message: { type: 'string' },
  },
};

const DESCRIPTIONS: Record<number, string> = {
  400: 'The body, query or a path parameter is invalid.',
  401: 'No valid session or token.',
  403: 'Authenticated, but not allowed.',
  404: 'Not found.',
  409: 'Conflicts with the current state.',
  413: 'The body or upload is too large.',
  415: 'The body is not in a media type the route takes (JSON unless it says otherwise): the message names the Content-Type expected and the one received.',
  429: 'Rate limited: retry after the Retry-After header.',
};

const errorContent = { 'application/json': { schema: { $ref: getSchemaPath(ERROR_RESPONSE) } } };

/** Error statuses a route answers beyond those documentErrors gives every route by its shape (409, or 400 from a body-less route). */
export const ApiErrors = (...statuses: number[]) =>
  applyDecorators(...statuses.map((status) => ApiResponse({ status, description: DESCRIPTIONS[status], content: errorContent })));

interface Operation {
  parameters?: { in: string }[];
  requestBody?: unknown;
  security?: unknown[];
  responses: Record<string, { description?: string; content?: unknown }>;
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;

/**
 * Documents the error answers of every operation, from what the platform does to any route: 400
 * for a body or query (the validation pipe), 413 for a body (the body parsers), 415 for a body
 * in a media type the route does not take (BodyTypeGuard), 404 for a path
 * parameter, 401 for an authenticated route (its decorators add 403), 429 everywhere (the
 * general rate limit). Each error answer gets ErrorResponse, except under rawPrefixes: the score
 * hooks, which answer in their clients' own shapes. It first completes every operation's path
 * parameters (documentPathParameters), which the 400 and 404 follow from.
 */
export function documentErrors(document: OpenAPIObject, rawPrefixes: readonly string[]): OpenAPIObject {
  documentPathParameters(document);
  document.components = { ...document.components, schemas: { ...document.components?.schemas, [ERROR_RESPONSE]: ERROR_SCHEMA } };
  for (const [path, item] of Object.entries(document.paths)) {
    const raw = rawPrefixes.some((prefix) => path.startsWith(prefix));
    for (const method of METHODS) {
      const operation = item[method] as Operation | undefined;
      if (!operation) continue;
      const statuses = new Set([429]);
      if (operation.requestBody) statuses.add(400).add(413);
      if (operation.parameters?.some((p) => p.in === 'query')) statuses.add(400);
      if (operation.parameters?.some((p) => p.in === 'path')) statuses.add(400).add(404);
      if (operation.security?.length) statuses.add(401);
      for (const status of statuses) operation.responses[status] ??= { description: DESCRIPTIONS[status] };
      // BodyTypeGuard's 415, answered as the route answers its 400 (the authorization page: an HTML page).
      if (operation.requestBody) operation.responses[415] ??= { description: DESCRIPTIONS[415], content: operation.responses[400]?.content };
      for (const [status, response] of Object.entries(operation.responses)) {
        if (!/^[45]\d\d$/.test(status)) continue;
        response.description ||= DESCRIPTIONS[Number(status)] ?? '';
        if (raw) response.description = `${response.description} Answered in the client's own error shape.`;
        else response.content ??= errorContent;
      }
    }
  }
  return document;
}
