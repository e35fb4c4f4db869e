/** The parts of an OpenAPI document the tests read. */
export interface Schema {
  $ref?: string;
  type?: string;
  nullable?: boolean;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  oneOf?: Schema[];
  allOf?: Schema[];
  additionalProperties?: Schema | boolean;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  description?: string;
  schema?: Schema;
}

export interface Operation {
  'x-raw-response'?: boolean;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema?: Schema }> };
  responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}

export interface SecurityScheme {
  type: string;
  scheme?: string;
  bearerFormat?: string;
  in?: string;
  name?: string;
  description?: string;
}

export interface OpenApiDocument {
  info: { title: string; description?: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema>; securitySchemes?: Record<string, SecurityScheme> };
}

export const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;

/**
 * Where a JSON value departs from a schema of the document. An object schema with properties and
 * no additionalProperties is closed: a key it does not list is a departure, so an answer cannot
 * carry a field its type does not describe.
 */
export function departures(doc: OpenApiDocument, schema: Schema, value: unknown, at: string): string[] {
  if (schema.$ref) return departures(doc, doc.components.schemas[schema.$ref.replace('#/components/schemas/', '')], value, at);
  if (value === null) return schema.nullable ? [] : [`${at}: null`];
  if (schema.allOf) return schema.allOf.flatMap((s) => departures(doc, s, value, at));
  if (schema.oneOf) return schema.oneOf.some((s) => departures(doc, s, value, at).length === 0) ? [] : [`${at}: matches none of oneOf`];
  if (schema.enum && !schema.enum.includes(value)) return [`${at}: ${JSON.stringify(value)} not in enum`];
  const kind = Array.isArray(value) ? 'array' : typeof value;
  switch (schema.type) {
    case undefined:
      return [];
    case 'integer':
      return Number.isInteger(value) ? [] : [`${at}: not an integer`];
    case 'array':
      return kind === 'array'
        ? (value as unknown[]).flatMap((v, i) => (schema.items ? departures(doc, schema.items, v, `${at}[${i}]`) : []))
        : [`${at}: not an array`];
    case 'object': {
      if (kind !== 'object') return [`${at}: not an object`];
      const entries = Object.entries(value as object);
      const missing = (schema.required ?? []).filter((k) => !(k in (value as object))).map((k) => `${at}.${k}: missing`);
      const closed = schema.properties !== undefined && schema.additionalProperties === undefined;
      return missing.concat(
        entries.flatMap(([k, v]) => {
          const property = schema.properties?.[k];
          if (property) return departures(doc, property, v, `${at}.${k}`);
          if (closed || schema.additionalProperties === false) return [`${at}.${k}: not in the schema`];
          return typeof schema.additionalProperties === 'object' ? departures(doc, schema.additionalProperties, v, `${at}.${k}`) : [];
        }),
      );
    }
    default:
      return kind === schema.type ? [] : [`${at}: not a ${schema.type}`];
  }
}
