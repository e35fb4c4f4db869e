import { afterAll, describe, expect, it } from '@jest/globals';
import { createCipheriv, hkdfSync } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../../src/config/app-config.js';
import { Keyring, parseSecret, SecretDecryptError, SecretKey, SecretsUnavailableError } from '../../../src/secrets/secret-cipher.js';
import { keyFilePath, loadKeyring, previousKeyTexts, readOrCreateKeyFile } from '../../../src/secrets/secrets-key.js';

const KEY_A = 'a'.repeat(32) + '-first-key';
const KEY_B = 'b'.repeat(32) + '-second-key';
const CTX = 'api_clients.client_secret_encrypted:CI0001';

/** Flips one bit of the base64url part `index` (0 version, 1 key id, 2 iv, 3 data) at byte `at`. */
function flipBit(value: string, index: 2 | 3, at: number): string {
  const parts = value.split('.');
  const bytes = Buffer.from(parts[index], 'base64url');
  bytes[at] ^= 0x01;
  parts[index] = bytes.toString('base64url');
  return parts.join('.');
}

describe('SecretKey and the v1 format', () => {
  it('round-trips, with a fresh IV each time, in the layout v1.<key id>.<iv>.<ciphertext+tag>', () => {
    const key = new SecretKey(KEY_A);
    const one = key.encrypt('CSdeadbeef', CTX);
    const two = key.encrypt('CSdeadbeef', CTX);
    expect(one).not.toBe(two);
    expect(one).toMatch(/^v1\.[0-9a-f]{16}\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
    expect(one.split('.')[1]).toBe(key.id);
    // 10 bytes of plaintext + 16 of tag = 26 bytes of data.
    expect(parseSecret(one).data.length).toBe(26);
    expect(new Keyring(key).decrypt(one, CTX)).toBe('CSdeadbeef');
    expect(new Keyring(key).decrypt(key.encrypt('', CTX), CTX)).toBe('');
    expect(new Keyring(key).decrypt(key.encrypt('ünïcødé ✓', CTX), CTX)).toBe('ünïcødé ✓');
  });

  it('is AES-256-GCM under the HKDF-SHA256 key, with "v1.<key id>.<context>" as additional data (checked against node:crypto directly)', () => {
    const key = new SecretKey(KEY_A);
    const aesKey = Buffer.from(hkdfSync('sha256', Buffer.from(KEY_A), Buffer.from('score-tracker/secrets'), 'aes-256-gcm', 32));
    const keyID = Buffer.from(hkdfSync('sha256', Buffer.from(KEY_A), Buffer.from('score-tracker/secrets'), 'key id', 8)).toString('hex');
    expect(key.id).toBe(keyID);
    const iv = Buffer.alloc(12, 7);
    const cipher = createCipheriv('aes-256-gcm', aesKey, iv);
    cipher.setAAD(Buffer.from(`v1.${keyID}.${CTX}`));
    const data = Buffer.concat([cipher.update('hello', 'utf8'), cipher.final(), cipher.getAuthTag()]);
    const made = `v1.${keyID}.${iv.toString('base64url')}.${data.toString('base64url')}`;
    expect(new Keyring(key).decrypt(made, CTX)).toBe('hello');
  });

  it('the key id depends on the key only: the same text gives the same id, another text another', () => {
    expect(new SecretKey(KEY_A).id).toBe(new SecretKey(KEY_A).id);
    expect(new SecretKey(KEY_A).id).not.toBe(new SecretKey(KEY_B).id);
  });

  it('refuses keys shorter than 32 characters', () => {
    expect(() => new SecretKey('x'.repeat(31))).toThrow('at least 32 characters');
    expect(new SecretKey('x'.repeat(32)).id).toMatch(/^[0-9a-f]{16}$/);
  });
});

describe('tamper detection', () => {
  const key = new SecretKey(KEY_A);
  const ring = new Keyring(key);
  const value = key.encrypt('CSsecret-of-forty-characters-or-so', CTX);

  it('a flipped bit of the ciphertext, the tag or the IV fails to authenticate', () => {
    const dataLength = parseSecret(value).data.length;
    for (const changed of [flipBit(value, 3, 0), flipBit(value, 3, dataLength - 1), flipBit(value, 2, 5)])
      expect(() => ring.decrypt(changed, CTX)).toThrow(SecretDecryptError);
  });

  it('a value moved to another record (another context) fails: the context is authenticated', () => {
    expect(() => ring.decrypt(value, 'api_clients.client_secret_encrypted:CI0002')).toThrow(SecretDecryptError);
  });

  it('a truncated value, a missing part or a shortened tag is not a well-formed v1 value', () => {
    const parts = value.split('.');
    expect(() => ring.decrypt(parts.slice(0, 3).join('.'), CTX)).toThrow('not a well-formed v1 ciphertext');
    expect(() => ring.decrypt(`${parts.slice(0, 3).join('.')}.${Buffer.alloc(8).toString('base64url')}`, CTX)).toThrow('not a well-formed v1 ciphertext');
    expect(() => ring.decrypt(`${value}.extra`, CTX)).toThrow('not a well-formed v1 ciphertext');
  });

  it('the error message never holds the plaintext or the value', () => {
    try {
      ring.decrypt(flipBit(value, 3, 0), CTX);
      throw new Error('decrypted');
    } catch (err) {
      expect((err as Error).message).not.toContain('CSsecret');
      expect((err as Error).message).not.toContain(value.split('.')[3].slice(0, 10));
    }
  });
});

describe('keys and rotation', () => {
  it('a value made with another key does not decrypt, and the error names that key', () => {
    const made = new SecretKey(KEY_A).encrypt('x', CTX);
    const ring = new Keyring(new SecretKey(KEY_B));
    expect(() => ring.decrypt(made, CTX)).toThrow(`made with key ${new SecretKey(KEY_A).id}`);
  });

  it('a value whose key id was rewritten to the current key fails to authenticate (the id is authenticated)', () => {
    const a = new SecretKey(KEY_A);
    const b = new SecretKey(KEY_B);
    const made = a.encrypt('x', CTX).replace(`.${a.id}.`, `.${b.id}.`);
    expect(() => new Keyring(b, [a]).decrypt(made, CTX)).toThrow(SecretDecryptError);
  });

  it('with the old key as a previous key, old values decrypt, new values use the current key, and isCurrent tells them apart', () => {
    const a = new SecretKey(KEY_A);
    const b = new SecretKey(KEY_B);
    const old = a.encrypt('CSold', CTX);
    const ring = new Keyring(b, [a]);
    expect(ring.decrypt(old, CTX)).toBe('CSold');
    const fresh = ring.encrypt('CSnew', CTX);
    expect(fresh.split('.')[1]).toBe(b.id);
    expect(ring.isCurrent(fresh)).toBe(true);
    expect(ring.isCurrent(old)).toBe(false);
    expect(ring.keyIDs).toEqual([b.id, a.id]);
  });

  it('without a current key nothing is encrypted, but previous keys still decrypt', () => {
    const a = new SecretKey(KEY_A);
    const ring = new Keyring(undefined, [a]);
    expect(ring.available).toBe(false);
    expect(() => ring.encrypt('x', CTX)).toThrow(SecretsUnavailableError);
    expect(ring.decrypt(a.encrypt('x', CTX), CTX)).toBe('x');
  });
});

describe('format versioning', () => {
  const ring = new Keyring(new SecretKey(KEY_A));

  it('refuses another version by name, and a value without one', () => {
    const v2 = ring.encrypt('x', CTX).replace(/^v1\./, 'v2.');
    expect(() => ring.decrypt(v2, CTX)).toThrow('unknown format (v2): this version reads v1');
    expect(() => ring.decrypt('CSplaintextsecret', CTX)).toThrow('unknown format (not a versioned ciphertext)');
  });
});

describe('the keyring of a process', () => {
  const made: string[] = [];
  const tmp = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'st-secrets-'));
    made.push(dir);
    return dir;
  };
  afterAll(() => {
    for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('embedded, without SECRETS_KEY: makes DATA_DIR/secrets.key once, mode 0600, and reads the same key afterwards', () => {
    const dir = path.join(tmp(), 'nested');
    const first = loadKeyring(loadConfig({ DATA_DIR: dir }));
    const file = keyFilePath(path.resolve(dir));
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(file, 'utf8')).toMatch(/^[A-Za-z0-9_-]{43}\n$/);
    const second = loadKeyring(loadConfig({ DATA_DIR: dir }));
    expect(second.current?.id).toBe(first.current?.id);
    // No temporary file left behind.
    expect(fs.readdirSync(path.resolve(dir))).toEqual(['secrets.key']);
  });

  it('warns when the key file can be read by others', () => {
    const dir = tmp();
    readOrCreateKeyFile(dir);
    fs.chmodSync(keyFilePath(dir), 0o644);
    const warnings: string[] = [];
    readOrCreateKeyFile(dir, (m) => warnings.push(m));
    expect(warnings).toEqual([expect.stringContaining('chmod 600')]);
  });

  it('embedded, with SECRETS_KEY: it is the current key, and a key file left from before still decrypts', () => {
    const dir = tmp();
    const fromFile = loadKeyring(loadConfig({ DATA_DIR: dir }));
    const old = fromFile.encrypt('CSold', CTX);
    const ring = loadKeyring(loadConfig({ DATA_DIR: dir, SECRETS_KEY: KEY_B }));
    expect(ring.current?.id).toBe(new SecretKey(KEY_B).id);
    expect(ring.decrypt(old, CTX)).toBe('CSold');
  });

  it('SECRETS_KEY_PREVIOUS is a comma-separated list; with DATABASE_URL and no SECRETS_KEY (spec) there is no current key and no key file', () => {
    expect(previousKeyTexts(` ${KEY_A} ,${KEY_B},`)).toEqual([KEY_A, KEY_B]);
    const dir = tmp();
    const ring = loadKeyring(loadConfig({ DATA_DIR: dir, DATABASE_URL: 'postgres://x/y', SECRETS_KEY_PREVIOUS: `${KEY_A},${KEY_B}` }));
    expect(ring.available).toBe(false);
    expect(ring.keyIDs).toEqual([new SecretKey(KEY_A).id, new SecretKey(KEY_B).id]);
    expect(fs.existsSync(keyFilePath(dir))).toBe(false);
  });

  it('loadConfig: SECRETS_KEY needs 32+ characters and no comma; each previous key 32+; DATABASE_URL under tachi needs SECRETS_KEY', () => {
    expect(() => loadConfig({ SECRETS_KEY: 'short' })).toThrow('SECRETS_KEY must be at least 32 characters, without a comma');
    expect(() => loadConfig({ SECRETS_KEY: `${KEY_A},${KEY_B}` })).toThrow('SECRETS_KEY must be at least 32 characters, without a comma');
    expect(() => loadConfig({ SECRETS_KEY_PREVIOUS: `${KEY_A},short` })).toThrow('SECRETS_KEY_PREVIOUS must be a comma-separated list');
    expect(() => loadConfig({ DATABASE_URL: 'postgres://x/y', API_PROFILE: 'tachi' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATABASE_URL: 'postgres://x/y', API_PROFILE: 'tachi' })).toThrow(
      'SECRETS_KEY must be set with DATABASE_URL under API_PROFILE=tachi',
    );
    expect(loadConfig({ DATABASE_URL: 'postgres://x/y', API_PROFILE: 'tachi', SECRETS_KEY: KEY_A }).SECRETS_KEY).toBe(KEY_A);
    expect(loadConfig({ DATABASE_URL: 'postgres://x/y' }).SECRETS_KEY).toBeUndefined();
    expect(loadConfig({ API_PROFILE: 'tachi' }).SECRETS_KEY).toBeUndefined();
  });
});
