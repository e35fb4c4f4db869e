import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Secrets at rest: AES-256-GCM, with keys derived by HKDF-SHA256 from the configured key text.
 *
 * A ciphertext is one ASCII string, `v1.<key id>.<iv>.<ciphertext and tag>` (base64url parts):
 * - `v1`: the format (this cipher, this layout); another version is refused, never guessed at;
 * - the key id: 16 hex characters derived from the key (not the key): it names the key the value
 *   was made with, so a value made with a previous key is decrypted with that one, and rotation
 *   finds the values still to re-encrypt;
 * - a random 96-bit IV, then the ciphertext followed by GCM's 128-bit tag.
 * The version, the key id and a caller's context (e.g. the table, column and row id) are the
 * additional authenticated data: a value moved to another row, or with its header edited, fails.
 */
export const SECRET_FORMAT = 'v1';

const SALT = Buffer.from('score-tracker/secrets');
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** The shortest key text accepted (SECRETS_KEY and the previous keys). */
export const MIN_SECRET_KEY_LENGTH = 32;

/** A value could not be decrypted: wrong or unknown key, tampered, or not a ciphertext of a known format. The message never holds the value. */
export class SecretDecryptError extends Error {}

/** No key is configured, so nothing can be encrypted (DATABASE_URL without SECRETS_KEY). */
export class SecretsUnavailableError extends Error {}

/** One key: the AES key derived from the configured text, and its public id. */
export class SecretKey {
  readonly id: string;
  private readonly key: Buffer;

  constructor(text: string) {
    if (text.length < MIN_SECRET_KEY_LENGTH) throw new Error(`A secrets key must be at least ${MIN_SECRET_KEY_LENGTH} characters.`);
    const ikm = Buffer.from(text, 'utf8');
    this.key = Buffer.from(hkdfSync('sha256', ikm, SALT, 'aes-256-gcm', 32));
    this.id = Buffer.from(hkdfSync('sha256', ikm, SALT, 'key id', 8)).toString('hex');
  }

  encrypt(plaintext: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(aad(this.id, context));
    const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return [SECRET_FORMAT, this.id, iv.toString('base64url'), data.toString('base64url')].join('.');
  }

  /** Decrypts a parsed value made with this key; throws SecretDecryptError when it does not authenticate. */
  decrypt(parsed: ParsedSecret, context: string): string {
    const decipher = createDecipheriv('aes-256-gcm', this.key, parsed.iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(aad(this.id, context));
    decipher.setAuthTag(parsed.data.subarray(parsed.data.length - TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(parsed.data.subarray(0, parsed.data.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretDecryptError(`A secret made with key ${this.id} does not authenticate: it was altered, or belongs to another record.`);
    }
  }
}

const aad = (keyID: string, context: string) => Buffer.from(`${SECRET_FORMAT}.${keyID}.${context}`, 'utf8');

export interface ParsedSecret {
  keyID: string;
  iv: Buffer;
  data: Buffer;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** The parts of a stored value; throws SecretDecryptError for anything but a well-formed `v1` value. */
export function parseSecret(value: string): ParsedSecret {
  const parts = value.split('.');
  if (parts[0] !== SECRET_FORMAT)
    throw new SecretDecryptError(
      `A stored secret is in an unknown format (${/^v\d+$/.test(parts[0] ?? '') ? parts[0] : 'not a versioned ciphertext'}): this version reads ${SECRET_FORMAT}.`,
    );
  const [, keyID, iv, data] = parts;
  if (parts.length !== 4 || !/^[0-9a-f]{16}$/.test(keyID) || !BASE64URL.test(iv) || !BASE64URL.test(data))
    throw new SecretDecryptError('A stored secret is not a well-formed v1 ciphertext.');
  const parsed = { keyID, iv: Buffer.from(iv, 'base64url'), data: Buffer.from(data, 'base64url') };
  if (parsed.iv.length !== IV_BYTES || parsed.data.length < TAG_BYTES) throw new SecretDecryptError('A stored secret is not a well-formed v1 ciphertext.');
  return parsed;
}

/**
 * The current key (new values use it; none when no key is configured) and the previous ones
 * (values made with them still decrypt, until `secrets rotate` re-encrypts them).
 */
export class Keyring {
  private readonly byID = new Map<string, SecretKey>();

  constructor(
    readonly current: SecretKey | undefined,
    previous: readonly SecretKey[] = [],
  ) {
    for (const key of [...(current ? [current] : []), ...previous]) if (!this.byID.has(key.id)) this.byID.set(key.id, key);
  }

  get available(): boolean {
    return this.current !== undefined;
  }

  /** The ids of every key that decrypts, the current one first. */
  get keyIDs(): string[] {
    return [...this.byID.keys()];
  }

  encrypt(plaintext: string, context: string): string {
    if (!this.current)
      throw new SecretsUnavailableError('No SECRETS_KEY is set: secrets cannot be stored encrypted (set SECRETS_KEY, 32+ characters, on every process).');
    return this.current.encrypt(plaintext, context);
  }

  /** Throws SecretDecryptError for an unknown format, a key not in the ring, or a value that does not authenticate. */
  decrypt(value: string, context: string): string {
    const parsed = parseSecret(value);
    const key = this.byID.get(parsed.keyID);
    if (!key)
      throw new SecretDecryptError(
        `A stored secret was made with key ${parsed.keyID}, which is neither SECRETS_KEY nor one of SECRETS_KEY_PREVIOUS (keys here: ${this.keyIDs.join(', ') || 'none'}).`,
      );
    return key.decrypt(parsed, context);
  }

  /** Whether the value was made with the current key (rotation leaves those alone). */
  isCurrent(value: string): boolean {
    return this.current !== undefined && value.startsWith(`${SECRET_FORMAT}.${this.current.id}.`);
  }
}
