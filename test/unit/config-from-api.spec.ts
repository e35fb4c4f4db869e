import { describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../src/config/app-config.js';

function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

const FLO = {
  FLO_API_URL: 'http://127.0.0.1:4000',
  FLO_CLIENT_ID: 'id',
  FLO_CLIENT_SECRET: 'secret',
  FLO_REDIRECT_URI: 'http://localhost:3000/oauth2-callback/flo',
};

describe('loadConfig: the from-api services', () => {
  it('leaves every service unconfigured by default, with the sync deadline and request timeout defaults', () => {
    const config = loadConfig({});
    expect(config.kai('flo')).toBeNull();
    expect(config.cg('cg-dev')).toBeNull();
    expect(config.myt()).toBeNull();
    expect(config.FROM_API_SYNC_DEADLINE_MS).toBe(600_000);
    expect(config.FROM_API_REQUEST_TIMEOUT_MS).toBe(30_000);
  });

  it('reads a fully configured KAI service, CG service and MYT', () => {
    const config = loadConfig({ ...FLO, CG_NAG_URL: 'https://cg.example/api', CG_NAG_API_KEY: 'k', MYT_API_HOST: 'myt.example:443', MYT_AUTH_TOKEN: 't' });
    expect(config.kai('flo')).toEqual({ apiUrl: FLO.FLO_API_URL, clientId: 'id', clientSecret: 'secret', redirectUri: FLO.FLO_REDIRECT_URI });
    expect(config.kai('eag')).toBeNull();
    expect(config.cg('cg-nag')).toEqual({ url: 'https://cg.example/api', apiKey: 'k' });
    expect(config.myt()).toEqual({ host: 'myt.example:443', authToken: 't', tlsCa: null });
  });

  it('stops the boot on a partly configured service, naming what is missing', () => {
    const { FLO_CLIENT_SECRET: _, ...partial } = FLO;
    expect(configError(partial).message).toContain('FLO_CLIENT_SECRET must be set with FLO_API_URL, FLO_CLIENT_ID, FLO_REDIRECT_URI');
    expect(configError({ CG_GAN_API_KEY: 'k' }).message).toContain('CG_GAN_URL must be set with CG_GAN_API_KEY');
    expect(configError({ MYT_API_HOST: 'h:1' }).message).toContain('MYT_AUTH_TOKEN must be set with MYT_API_HOST');
  });

  it('refuses an API URL with a path, a bad MYT host and an unreadable CA file', () => {
    expect(configError({ ...FLO, FLO_API_URL: 'http://x/api' }).message).toContain('FLO_API_URL must be an origin');
    expect(configError({ MYT_API_HOST: 'no-port', MYT_AUTH_TOKEN: 't' }).message).toContain('MYT_API_HOST must be host:port');
    expect(configError({ MYT_API_HOST: 'h:1', MYT_AUTH_TOKEN: 't', MYT_TLS_CA: '/nonexistent/ca.pem' }).message).toContain(
      'MYT_TLS_CA="/nonexistent/ca.pem": cannot read it (ENOENT)',
    );
  });

  it('reads MYT_TLS_CA at boot', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'myt-ca-')), 'ca.pem');
    fs.writeFileSync(file, 'PEM');
    expect(loadConfig({ MYT_API_HOST: 'h:1', MYT_AUTH_TOKEN: 't', MYT_TLS_CA: file }).myt()?.tlsCa?.toString()).toBe('PEM');
  });
});
