import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { AppConfig } from '../config/app-config.js';
import { Keyring, MIN_SECRET_KEY_LENGTH, SecretKey } from './secret-cipher.js';

/** The key file of the embedded database, beside (never inside) DATA_DIR/db: a dump or backup of the database alone holds no key. */
export const KEY_FILE_NAME = 'secrets.key';

export function keyFilePath(dataDir: string): string {
  return path.join(dataDir, KEY_FILE_NAME);
}

function readKeyFile(file: string): string {
  const text = fs.readFileSync(file, 'utf8').trim();
  if (text.length < MIN_SECRET_KEY_LENGTH)
    throw new Error(
      `${file} does not hold a secrets key (${MIN_SECRET_KEY_LENGTH}+ characters): restore it from a backup, or remove it to start over (secrets stored with it are then lost).`,
    );
  return text;
}

/**
 * The key in DATA_DIR/secrets.key, made on first use: 32 random bytes (base64url), written to a
 * temporary file created with mode 0600 and linked into place, so no process reads a half-written
 * file and, when two processes start at once, both use the one that was linked first.
 */
export function readOrCreateKeyFile(dataDir: string, warn: (message: string) => void = () => undefined): string {
  const file = keyFilePath(dataDir);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dataDir, { recursive: true });
    const tmp = `${file}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`;
    const fd = fs.openSync(tmp, 'wx', 0o600);
    try {
      fs.writeSync(fd, `${randomBytes(32).toString('base64url')}\n`);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    try {
      fs.linkSync(tmp, file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      fs.rmSync(tmp, { force: true });
    }
  }
  const mode = fs.statSync(file).mode & 0o777;
  if (mode & 0o077) warn(`${file} can be read by other users (mode ${mode.toString(8)}): chmod 600 it.`);
  return readKeyFile(file);
}

/** SECRETS_KEY_PREVIOUS as a list (comma-separated; keys hold no commas). */
export function previousKeyTexts(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter((k) => k !== '');
}

/**
 * The process's keyring:
 * - SECRETS_KEY set: it is the current key. On the embedded database, a key file left from before
 *   it was set also decrypts (as a previous key), so `secrets rotate` can move its values over;
 * - unset, on the embedded database: the key file's key (made when a secret is first stored);
 * - unset, with DATABASE_URL: no current key (loadConfig refuses this under API_PROFILE=tachi).
 * SECRETS_KEY_PREVIOUS's keys decrypt in every case.
 */
export function loadKeyring(
  config: Pick<AppConfig, 'SECRETS_KEY' | 'SECRETS_KEY_PREVIOUS' | 'DATABASE_URL' | 'dataDir'>,
  warn?: (message: string) => void,
): Keyring {
  const previous = previousKeyTexts(config.SECRETS_KEY_PREVIOUS).map((k) => new SecretKey(k));
  if (config.DATABASE_URL) return new Keyring(config.SECRETS_KEY ? new SecretKey(config.SECRETS_KEY) : undefined, previous);
  if (config.SECRETS_KEY) {
    const file = keyFilePath(config.dataDir);
    const fromFile = fs.existsSync(file) ? [new SecretKey(readKeyFile(file))] : [];
    return new Keyring(new SecretKey(config.SECRETS_KEY), [...previous, ...fromFile]);
  }
  return new Keyring(new SecretKey(readOrCreateKeyFile(config.dataDir, warn)), previous);
}
