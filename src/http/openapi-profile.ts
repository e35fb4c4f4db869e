import type { OpenAPIObject, SchemaObject } from '@nestjs/swagger';
import { presenters, type ApiProfile, type SchemaClass } from '../presenters/profile.js';
import { apiDescription } from './openapi-description.js';
import { ERROR_RESPONSE } from './openapi-errors.js';
import { renamedDtos, tachiNames } from './profile-names.js';
import { RAW_RESPONSE_EXTENSION } from './response-shapes.js';

/** Tachi's error body: `{success: false, description}`; a rate-limited answer adds `{status: 429, message}`. */
const TACHI_ERROR_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['success', 'description'],
  properties: {
    success: { type: 'boolean', enum: [false] },
    description: { type: 'string', description: 'What went wrong, for people (clients must not parse it).' },
    status: { type: 'integer', enum: [429], description: 'Only when rate limited.' },
    message: { type: 'string', description: "Only when rate limited: You're being rate limited." },
  },
};

const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;

interface Operation {
  [RAW_RESPONSE_EXTENSION]?: boolean;
  parameters?: { in: string; name: string; required?: boolean }[];
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

/** The models the OpenAPI document must hold for a profile: under tachi, the presenters' tachi classes. */
export function profileModels(profile: ApiProfile): SchemaClass[] {
  return profile === 'tachi' ? presenters().flatMap((p) => (p.schemas ? [tachiClass(p.schemas.tachi)] : [])) : [];
}

function tachiClass(tachi: SchemaClass | readonly [SchemaClass]): SchemaClass {
  return Array.isArray(tachi) ? (tachi as readonly [SchemaClass])[0] : (tachi as SchemaClass);
}

/**
 * Makes the OpenAPI document describe what the profile serves (after documentErrors), starting
 * with its description (apiDescription), which names the profile's answers. spec: the rest as it
 * is. tachi: each presenter's spec schema describes its tachi document instead
 * (the name stays, so every reference follows), request fields Tachi names differently carry
 * Tachi's names (in bodies' schemas and as query parameters), every JSON answer outside rawPrefixes and RawResponse routes is wrapped in {success: true, description,
 * body}, and ErrorResponse is Tachi's {success: false, description}.
 */
export function documentProfile(document: OpenAPIObject, profile: ApiProfile, rawPrefixes: readonly string[]): OpenAPIObject {
  document.info.description = apiDescription(profile);
  if (profile === 'spec') return document;
  const schemas = (document.components ??= {}).schemas ?? {};
  document.components.schemas = schemas;
  for (const { schemas: pair } of presenters()) {
    if (!pair) continue;
    const tachi = tachiClass(pair.tachi);
    if (!schemas[tachi.name]) continue;
    schemas[pair.spec.name] = Array.isArray(pair.tachi)
      ? { type: 'array', items: { $ref: `#/components/schemas/${tachi.name}` } }
      : structuredClone(schemas[tachi.name]);
  }
  for (const dto of renamedDtos()) {
    const schema = schemas[dto.name] as SchemaObject | undefined;
    if (!schema?.properties) continue;
    for (const [tachi, own] of Object.entries(tachiNames(dto))) {
      if (!(own in schema.properties)) continue;
      schema.properties = Object.fromEntries(Object.entries(schema.properties).map(([key, value]) => [key === own ? tachi : key, value]));
      schema.required = schema.required?.map((key: string) => (key === own ? tachi : key));
    }
  }
  renameQueryParameters(document);
  schemas[ERROR_RESPONSE] = TACHI_ERROR_SCHEMA;
  for (const [path, item] of Object.entries(document.paths)) {
    if (rawPrefixes.some((prefix) => path.startsWith(prefix))) continue;
    for (const method of METHODS) {
      const operation = item[method] as Operation | undefined;
      if (operation?.[RAW_RESPONSE_EXTENSION]) continue;
      for (const [status, response] of Object.entries(operation?.responses ?? {})) {
        const json = response.content?.['application/json'];
        if (!/^2\d\d$/.test(status) || !json?.schema) continue;
        json.schema = {
          type: 'object',
          required: ['success', 'description', 'body'],
          properties: { success: { type: 'boolean', enum: [true] }, description: { type: 'string' }, body: json.schema },
        };
      }
    }
  }
  return document;
}

/** The fields of a DTO as @nestjs/swagger lists them (its `@ApiProperty` ones). */
function dtoFields(dto: abstract new (...args: never[]) => object): string[] {
  const listed = (Reflect.getMetadata('swagger/apiModelPropertiesArray', dto.prototype) as string[] | undefined) ?? [];
  return listed.map((key) => key.replace(/^:/, ''));
}

/**
 * A query DTO's fields are the operation's query parameters (Swagger spreads the DTO, naming it
 * nowhere): an operation whose query parameters are exactly a renamed DTO's fields takes its
 * parameters under Tachi's names.
 */
function renameQueryParameters(document: OpenAPIObject): void {
  const dtos = renamedDtos().map((dto) => ({ fields: dtoFields(dto).sort().join(','), names: tachiNames(dto) }));
  for (const item of Object.values(document.paths)) {
    for (const method of METHODS) {
      const query = ((item[method] as Operation | undefined)?.parameters ?? []).filter((p) => p.in === 'query');
      const names = dtos.find(
        (dto) =>
          dto.fields ===
          query
            .map((p) => p.name)
            .sort()
            .join(','),
      )?.names;
      if (!names) continue;
      for (const [tachi, own] of Object.entries(names)) for (const parameter of query.filter((p) => p.name === own)) parameter.name = tachi;
    }
  }
}
