import { describe, expect, it } from '@jest/globals';
import { ConfigError, loadConfig } from '../../src/config/app-config.js';

describe('API_PROFILE and its alias API_ENVELOPE', () => {
  it.each([
    [{}, 'spec', 'plain'],
    [{ API_PROFILE: 'tachi' }, 'tachi', 'tachi'],
    [{ API_PROFILE: 'spec' }, 'spec', 'plain'],
    [{ API_ENVELOPE: 'tachi' }, 'tachi', 'tachi'],
    [{ API_ENVELOPE: 'plain' }, 'spec', 'plain'],
    [{ API_PROFILE: 'tachi', API_ENVELOPE: 'tachi' }, 'tachi', 'tachi'],
    [{ API_PROFILE: '' }, 'spec', 'plain'],
  ])('%p → API_PROFILE %s, API_ENVELOPE %s', (env, profile, envelope) => {
    expect(loadConfig(env)).toMatchObject({ API_PROFILE: profile, API_ENVELOPE: envelope });
  });

  it('refuses an unknown profile, and the two names disagreeing', () => {
    expect(() => loadConfig({ API_PROFILE: 'plain' })).toThrow(ConfigError);
    expect(() => loadConfig({ API_PROFILE: 'plain' })).toThrow(/API_PROFILE must be spec or tachi/);
    expect(() => loadConfig({ API_PROFILE: 'tachi', API_ENVELOPE: 'plain' })).toThrow(/disagree/);
    expect(() => loadConfig({ API_PROFILE: 'spec', API_ENVELOPE: 'tachi' })).toThrow(/disagree/);
  });
});
