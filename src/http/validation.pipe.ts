import { BadRequestException, Inject, Optional, ValidationPipe, type ArgumentMetadata, type ValidationError } from '@nestjs/common';
import type { ApiProfile } from '../presenters/profile.js';
import { API_PROFILE } from './envelope.js';
import { tachiNames } from './profile-names.js';

/**
 * A body that failed validation. The exception filter adds what the request's content type has
 * to do with it (no body at all, a JSON document posted as a form).
 */
export class BodyValidationException extends BadRequestException {}

function flatten(errors: ValidationError[], prefix = ''): string[] {
  return errors.flatMap((e) => {
    const path = prefix ? `${prefix}.${e.property}` : e.property;
    const own = Object.values(e.constraints ?? {}).map((m) => (prefix && m.startsWith(e.property) ? `${prefix}.${m}` : m));
    return [...own, ...flatten(e.children ?? [], path)];
  });
}

/** The messages once each, in order: constraints sharing one message (QueryInt's IsInt, Min and Max) fail together. */
function joinMessages(errors: ValidationError[]): string {
  return [...new Set(flatten(errors))].join('; ');
}

/**
 * The global pipe: whitelisting, unknown keys rejected, values transformed, and every message
 * joined into one readable string, each said once. A body or query that is not an object is a 400
 * too. A body's 400 is a BodyValidationException. Under API_PROFILE=tachi the fields of a body or
 * query that Tachi names differently (TachiName) are read under Tachi's names.
 */
export class ApiValidationPipe extends ValidationPipe {
  constructor(@Optional() @Inject(API_PROFILE) private readonly profile: ApiProfile = 'spec') {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      validationError: { target: false, value: false },
      exceptionFactory: (errors) => new BadRequestException(joinMessages(errors)),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    try {
      return await this.check(value, metadata);
    } catch (err) {
      if (metadata.type !== 'body' || !(err instanceof BadRequestException) || err instanceof BodyValidationException) throw err;
      throw new BodyValidationException(err.message);
    }
  }

  private async check(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const isDto = typeof metadata.metatype === 'function' && ![String, Number, Boolean, Array, Object].includes(metadata.metatype as never);
    if (isDto && (metadata.type === 'body' || metadata.type === 'query')) {
      if (value === undefined || value === null) value = {};
      if (typeof value !== 'object' || Array.isArray(value)) throw new BadRequestException(`The request ${metadata.type} must be a JSON object.`);
    }
    const names =
      this.profile === 'tachi' && isDto && (metadata.type === 'body' || metadata.type === 'query') ? Object.entries(tachiNames(metadata.metatype)) : [];
    if (names.length === 0) return super.transform(value, metadata);
    const body = { ...(value as Record<string, unknown>) };
    for (const [tachi, own] of names) {
      if (own in body) throw new BadRequestException(`property ${own} should not exist (under API_PROFILE=tachi it is ${tachi})`);
      if (tachi in body) {
        body[own] = body[tachi];
        delete body[tachi];
      }
    }
    try {
      return await super.transform(body, metadata);
    } catch (err) {
      if (!(err instanceof BadRequestException)) throw err;
      const message = names.reduce((m, [tachi, own]) => m.replace(new RegExp(`\\b${own}\\b`, 'g'), tachi), err.message);
      throw new BadRequestException(message);
    }
  }
}
