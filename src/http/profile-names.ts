import 'reflect-metadata';

const TACHI_NAMES = Symbol('request:tachi-names');

/** Every DTO with a TachiName field (the OpenAPI document renames them under tachi). */
const RENAMED = new Set<abstract new (...args: never[]) => object>();

/**
 * A request field Tachi names differently: under API_PROFILE=tachi the body or query carries it under
 * `name` (the DTO's own name is then unknown there, as in Tachi), and the validation pipe hands
 * it to the DTO under the DTO's name. Messages about it use Tachi's name.
 */
export function TachiName(name: string): PropertyDecorator {
  return (target, key) => {
    const names = { ...tachiNames(target.constructor) };
    names[name] = String(key);
    Reflect.defineMetadata(TACHI_NAMES, names, target.constructor);
    RENAMED.add(target.constructor as abstract new (...args: never[]) => object);
  };
}

/** A DTO's fields named differently under tachi: Tachi's name → the DTO's. */
export function tachiNames(dto: unknown): Readonly<Record<string, string>> {
  return (typeof dto === 'function' ? (Reflect.getMetadata(TACHI_NAMES, dto) as Record<string, string> | undefined) : undefined) ?? {};
}

/** The DTOs with fields Tachi names differently. */
export function renamedDtos(): readonly (abstract new (...args: never[]) => object)[] {
  return [...RENAMED];
}
