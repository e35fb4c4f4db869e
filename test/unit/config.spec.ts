import { describe, expect, it } from '@jest/globals';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../src/config/app-config.js';

/** The error loadConfig throws for env, or a failure when it throws nothing. */
function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('loadConfig', () => {
  it('applies the documented defaults to an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 3000,
      HOST: '127.0.0.1',
      DATA_DIR: './data',
      DATABASE_POOL_SIZE: 10,
      API_ENVELOPE: 'plain',
      INVITE_ONLY: false,
      LOG_LEVEL: 'info',
      TRUST_PROXY: 'loopback',
      RATE_LIMIT_PER_MINUTE: 500,
      AUTH_RATE_LIMIT_FACTOR: 1,
      OAUTH_CLIENT_CAP: 15,
      BODY_LIMIT_BYTES: 4 * 1024 * 1024,
      IMAGE_UPLOAD_LIMIT_BYTES: 4 * 1024 * 1024,
      PUBLIC_URL: 'http://127.0.0.1:3000',
      WEBHOOKS_ALLOW_PRIVATE: false,
      WEBHOOK_MAX_ATTEMPTS: 8,
      WEBHOOK_RETRY_BASE_MS: 30_000,
      WEBHOOK_TIMEOUT_MS: 10_000,
      WEBHOOK_POLL_INTERVAL_MS: 5_000,
      CORS_ORIGINS: '',
    });
    expect(config.corsOrigins).toEqual([]);
    for (const unset of [
      'DATABASE_URL',
      'REDIS_URL',
      'SMTP_URL',
      'CAPTCHA_VERIFY_URL',
      'CAPTCHA_SECRET',
      'SESSION_SECRET',
      'SECRETS_KEY',
      'SECRETS_KEY_PREVIOUS',
    ] as const) {
      expect(config[unset]).toBeUndefined();
    }
    expect(config.dataDir).toBe(path.resolve('./data'));
    expect(config.secureCookies).toBe(false);
    expect(config.captchaEnabled).toBe(false);
  });

  it('reads and converts valid values', () => {
    const config = loadConfig({
      PORT: '8080',
      DATABASE_URL: 'postgresql://u:p@db.example:5432/scores',
      REDIS_URL: 'rediss://cache.example:6380',
      API_ENVELOPE: 'tachi',
      INVITE_ONLY: 'TRUE',
      OAUTH_CLIENT_CAP: '3',
      PUBLIC_URL: 'https://scores.example.com',
      CAPTCHA_VERIFY_URL: 'https://challenges.example.com/siteverify',
      CAPTCHA_SECRET: 'shh',
      SESSION_SECRET: 's'.repeat(32),
      SECRETS_KEY: 'k'.repeat(32),
    });
    expect(config).toMatchObject({
      PORT: 8080,
      API_ENVELOPE: 'tachi',
      INVITE_ONLY: true,
      OAUTH_CLIENT_CAP: 3,
      DATABASE_URL: 'postgresql://u:p@db.example:5432/scores',
      SECRETS_KEY: 'k'.repeat(32),
    });
    expect(config.secureCookies).toBe(true);
    expect(config.captchaEnabled).toBe(true);
  });

  it('reads the webhook settings', () => {
    expect(
      loadConfig({
        WEBHOOKS_ALLOW_PRIVATE: 'true',
        WEBHOOK_MAX_ATTEMPTS: '3',
        WEBHOOK_RETRY_BASE_MS: '100',
        WEBHOOK_TIMEOUT_MS: '2000',
        WEBHOOK_POLL_INTERVAL_MS: '50',
      }),
    ).toMatchObject({
      WEBHOOKS_ALLOW_PRIVATE: true,
      WEBHOOK_MAX_ATTEMPTS: 3,
      WEBHOOK_RETRY_BASE_MS: 100,
      WEBHOOK_TIMEOUT_MS: 2000,
      WEBHOOK_POLL_INTERVAL_MS: 50,
    });
  });

  it('reads the target subscription caps (1,000 goal and 100 quest subscriptions per GPT by default)', () => {
    expect(loadConfig({})).toMatchObject({ MAX_GOAL_SUBSCRIPTIONS: 1000, MAX_QUEST_SUBSCRIPTIONS: 100 });
    expect(loadConfig({ MAX_GOAL_SUBSCRIPTIONS: '20', MAX_QUEST_SUBSCRIPTIONS: '3' })).toMatchObject({
      MAX_GOAL_SUBSCRIPTIONS: 20,
      MAX_QUEST_SUBSCRIPTIONS: 3,
    });
  });

  it.each(['false', '0', 'no', ''])('reads INVITE_ONLY=%p as false', (value) => {
    expect(loadConfig({ INVITE_ONLY: value }).INVITE_ONLY).toBe(false);
  });

  it('treats empty optional URLs as unset', () => {
    const config = loadConfig({ DATABASE_URL: '', REDIS_URL: '', SMTP_URL: '' });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.REDIS_URL).toBeUndefined();
    expect(config.SMTP_URL).toBeUndefined();
  });

  it('ignores variables it does not know', () => {
    expect(() => loadConfig({ PATH: '/usr/bin', SOMETHING_ELSE: 'x' })).not.toThrow();
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '80.5'],
    ['API_ENVELOPE', 'x'],
    ['DATABASE_URL', 'mysql://root@localhost/scores'],
    ['REDIS_URL', 'http://cache.example'],
    ['SMTP_URL', 'mail.example.com'],
    ['INVITE_ONLY', 'maybe'],
    ['LOG_LEVEL', 'verbose'],
    ['PUBLIC_URL', 'ftp://scores.example.com'],
    ['SESSION_SECRET', 'too-short'],
    ['OAUTH_CLIENT_CAP', '0'],
    ['BODY_LIMIT_BYTES', '10'],
    ['DATABASE_POOL_SIZE', 'many'],
    ['TRUST_PROXY', 'yes please'],
    ['TRUST_PROXY', '10.0.0.1,,10.0.0.2'],
    ['TRUST_PROXY', '10.0.0.0/33'],
    ['TRUST_PROXY', 'loopback, proxy.example.com'],
    ['TRUST_PROXY', '-1'],
    ['HOST', 'not a host'],
    ['HOST', '[::1]'],
    ['HOST', '127.0.0.1:3000'],
    ['HOST', ''],
    ['MAIL_FROM', 'Score Tracker'],
    ['MAIL_FROM', 'Score Tracker <no-reply>'],
    ['MAIL_FROM', 'two@example.com, three@example.com'],
    ['MAIL_FROM', 'Name <a@example.com'],
    ['WEBHOOKS_ALLOW_PRIVATE', 'sometimes'],
    ['MAX_GOAL_SUBSCRIPTIONS', '0'],
    ['MAX_GOAL_SUBSCRIPTIONS', 'lots'],
    ['MAX_QUEST_SUBSCRIPTIONS', '0'],
    ['MAX_QUEST_SUBSCRIPTIONS', '2.5'],
    ['WEBHOOK_MAX_ATTEMPTS', '0'],
    ['WEBHOOK_MAX_ATTEMPTS', '21'],
    ['WEBHOOK_RETRY_BASE_MS', '5'],
    ['WEBHOOK_TIMEOUT_MS', 'ten'],
    ['WEBHOOK_POLL_INTERVAL_MS', '-1'],
    ['CORS_ORIGINS', '*'],
    ['CORS_ORIGINS', 'scores.example.com'],
    ['CORS_ORIGINS', 'https://scores.example.com/'],
    ['CORS_ORIGINS', 'https://scores.example.com/app'],
    ['CORS_ORIGINS', 'https://a.example.com,,https://b.example.com'],
    ['CORS_ORIGINS', 'ftp://files.example.com'],
    ['CORS_ORIGINS', 'https://user:pw@scores.example.com'],
  ])('refuses %s=%p with a ConfigError naming the variable', (name, value) => {
    const err = configError({ [name]: value });
    expect(err.message).toContain(`${name}=${JSON.stringify(value)}`);
  });

  it.each([
    [
      'TRUST_PROXY',
      'true',
      'false',
      '0',
      '2',
      'loopback',
      'loopback, linklocal, uniquelocal',
      '10.0.0.1',
      '10.0.0.0/8, 192.168.1.0/255.255.255.0',
      '::1',
      'fd00::/8,127.0.0.1',
    ],
    ['HOST', '127.0.0.1', '0.0.0.0', '::', '::1', 'localhost', 'api.internal', 'my-host-1'],
    ['CORS_ORIGINS', '', 'https://scores.example.com', 'http://localhost:5173', 'https://a.example.com, http://127.0.0.1:8080'],
    ['MAIL_FROM', 'no-reply@localhost', 'Score Tracker <no-reply@localhost>', '"Tracker, Inc." <mail@scores.example.com>', 'scores+bot@example.com'],
  ])('accepts each valid %s', (name, ...values) => {
    for (const value of values) expect(loadConfig({ [name]: value })[name as 'HOST']).toBe(value);
  });

  it('reads CORS_ORIGINS as a list of origins', () => {
    expect(loadConfig({ CORS_ORIGINS: ' https://a.example.com , http://localhost:5173 ' }).corsOrigins).toEqual([
      'https://a.example.com',
      'http://localhost:5173',
    ]);
  });

  it('defaults PUBLIC_URL to localhost when HOST listens on every interface', () => {
    expect(loadConfig({ HOST: '0.0.0.0', PORT: '8080' }).PUBLIC_URL).toBe('http://localhost:8080');
    expect(loadConfig({ HOST: '::' }).PUBLIC_URL).toBe('http://localhost:3000');
    expect(loadConfig({ HOST: '::1' }).PUBLIC_URL).toBe('http://[::1]:3000');
    expect(loadConfig({ HOST: 'api.internal', PORT: '80' }).PUBLIC_URL).toBe('http://api.internal:80');
    expect(loadConfig({ HOST: '0.0.0.0', PUBLIC_URL: 'https://scores.example.com' }).PUBLIC_URL).toBe('https://scores.example.com');
  });

  it('refuses CAPTCHA_VERIFY_URL without CAPTCHA_SECRET, naming both', () => {
    const err = configError({ CAPTCHA_VERIFY_URL: 'https://challenges.example.com/siteverify' });
    expect(err.message).toContain('CAPTCHA_SECRET');
    expect(err.message).toContain('CAPTCHA_VERIFY_URL');
  });

  it('names every bad variable at once', () => {
    const err = configError({ PORT: 'abc', API_ENVELOPE: 'x', INVITE_ONLY: 'maybe' });
    for (const name of ['PORT', 'API_ENVELOPE', 'INVITE_ONLY']) expect(err.message).toContain(name);
  });
});
