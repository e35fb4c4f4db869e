import { ApiResponse, type SchemaObject } from '@nestjs/swagger';

/** The spec's 'Empty Object' answer: the body is {}. */
export type EmptyObject = Record<string, never>;

export const EMPTY_OBJECT_SCHEMA: SchemaObject = { type: 'object', additionalProperties: false, description: 'Empty Object: always {}.' };

/** Documents a route that answers the Empty Object. */
export const ApiEmptyObjectResponse = (status = 200, description = 'Empty Object.') => ApiResponse({ status, description, schema: EMPTY_OBJECT_SCHEMA });
