import { BadRequestException, ValidationPipe, type ArgumentMetadata, type ValidationError } from '@nestjs/common';

function flatten(errors: ValidationError[], prefix = ''): string[] {
  return errors.flatMap((e) => {
    const path = prefix ? `${prefix}.${e.property}` : e.property;
    const own = Object.values(e.constraints ?? {}).map((m) => (prefix && m.startsWith(e.property) ? `${prefix}.${m}` : m));
    return [...own, ...flatten(e.children ?? [], path)];
  });
}

/**
 * The global pipe: whitelisting, unknown keys rejected, values transformed, and every message
 * joined into one readable string. A body or query that is not an object is a 400 too.
 */
export class ApiValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      validationError: { target: false, value: false },
      exceptionFactory: (errors) => new BadRequestException(flatten(errors).join('; ')),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const isDto = typeof metadata.metatype === 'function' && ![String, Number, Boolean, Array, Object].includes(metadata.metatype as never);
    if (isDto && (metadata.type === 'body' || metadata.type === 'query')) {
      if (value === undefined || value === null) value = {};
      if (typeof value !== 'object' || Array.isArray(value)) throw new BadRequestException(`The request ${metadata.type} must be a JSON object.`);
    }
    return super.transform(value, metadata);
  }
}
