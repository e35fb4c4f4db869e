import { ValidateIf } from 'class-validator';

/** The property may be absent or null (null unsets it); other values are validated. */
export const NullableOptional = () => ValidateIf((_o: unknown, value: unknown) => value !== null && value !== undefined);

/** The property may be absent; null is validated, and so refused by the type validators that follow. */
export const OptionalNotNull = () => ValidateIf((_o: unknown, value: unknown) => value !== undefined);

/** The property may be absent; otherwise it is validated. */
export const Optional = OptionalNotNull;

/** The spec's username rule: 3 to 20 characters; first A-Z, _ or -; the rest A-Z, 0-9, _ or -. */
export const USERNAME_PATTERN = /^[A-Za-z_-][A-Za-z0-9_-]{2,19}$/;

export const HTTP_URL_OPTIONS = { protocols: ['http', 'https'], require_protocol: true, require_tld: false, require_host: true };
