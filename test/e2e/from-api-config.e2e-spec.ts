import { describe, expect, it } from '@jest/globals';
import { createTestApp, type TestApp } from '../support/app.js';

// GET /config (API_PROFILE=tachi; the spec profile has no /config route) lists exactly the api/ import
// types whose service is configured: none with nothing configured, each family once its variables are set.
const KAI_TYPES = { flo: ['api/flo-iidx', 'api/flo-sdvx'], eag: ['api/eag-iidx', 'api/eag-sdvx'], min: ['api/min-sdvx'] };
const CG_GAMES = ['sdvx', 'popn', 'museca', 'jubeat', 'iidx'];
const MYT_TYPES = ['api/myt-chunithm', 'api/myt-maimaidx', 'api/myt-ongeki', 'api/myt-wacca'];

async function apiTypesOf(env: Record<string, string>): Promise<{ types: string[]; all: string[] }> {
  const t: TestApp = await createTestApp({ API_PROFILE: 'tachi', ...env });
  try {
    const res = await t.http().get('/api/v1/config');
    expect(res.status).toBe(200);
    const all = res.body.body.IMPORT_TYPES as string[];
    return { types: all.filter((x) => x.startsWith('api/')).sort(), all };
  } finally {
    await t.close();
  }
}

const kaiEnv = (p: string) => ({
  [`${p}_API_URL`]: 'http://127.0.0.1:9',
  [`${p}_CLIENT_ID`]: `${p.toLowerCase()}-client`,
  [`${p}_CLIENT_SECRET`]: `${p.toLowerCase()}-secret`,
  [`${p}_REDIRECT_URI`]: 'http://127.0.0.1:3000/integrations/callback',
});

describe('GET /config lists exactly the enabled api/ import types', () => {
  it('none when no service is configured, while the file types stay listed', async () => {
    const { types, all } = await apiTypesOf({});
    expect(types).toEqual([]);
    expect(all).toContain('file/batch-manual');
  });

  it('a KAI service (FLO) and one CG service (NAG): their types only', async () => {
    const { types } = await apiTypesOf({ ...kaiEnv('FLO'), CG_NAG_URL: 'http://127.0.0.1:9/', CG_NAG_API_KEY: 'nag-key' });
    expect(types).toEqual([...KAI_TYPES.flo, ...CG_GAMES.map((g) => `api/cg-nag-${g}`)].sort());
  });

  it('a half-configured service (FLO without its secret, CG_DEV without its key) refuses to start, naming what is missing', async () => {
    const { FLO_CLIENT_SECRET: _omit, ...flo } = kaiEnv('FLO');
    await expect(createTestApp({ API_PROFILE: 'tachi', ...flo, CG_DEV_URL: 'http://127.0.0.1:9/' })).rejects.toThrow(
      /FLO_CLIENT_SECRET must be set[\s\S]*CG_DEV_API_KEY must be set/,
    );
  });

  it('every service configured: all 24 api/ types', async () => {
    const { types } = await apiTypesOf({
      ...kaiEnv('FLO'),
      ...kaiEnv('EAG'),
      ...kaiEnv('MIN'),
      ...Object.fromEntries(
        ['DEV', 'NAG', 'GAN'].flatMap((p) => [
          [`CG_${p}_URL`, 'http://127.0.0.1:9/'],
          [`CG_${p}_API_KEY`, `${p}-key`],
        ]),
      ),
      MYT_API_HOST: '127.0.0.1:9',
      MYT_AUTH_TOKEN: 'myt-token',
    });
    const expected = [
      ...KAI_TYPES.flo,
      ...KAI_TYPES.eag,
      ...KAI_TYPES.min,
      ...['dev', 'nag', 'gan'].flatMap((s) => CG_GAMES.map((g) => `api/cg-${s}-${g}`)),
      ...MYT_TYPES,
    ].sort();
    expect(expected).toHaveLength(24);
    expect(types).toEqual(expected);
  });

  it('the spec profile has no /config route (404), as the spec lists none', async () => {
    const t = await createTestApp({ CG_NAG_URL: 'http://127.0.0.1:9/', CG_NAG_API_KEY: 'nag-key' });
    try {
      expect((await t.http().get('/api/v1/config')).status).toBe(404);
    } finally {
      await t.close();
    }
  });
});
