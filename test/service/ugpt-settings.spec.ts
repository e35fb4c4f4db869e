import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { BadRequestException } from '@nestjs/common';
import { findGpt } from '../../src/game-support/registry.js';
import { UgptModule } from '../../src/ugpt/ugpt.module.js';
import { UgptSettingsService } from '../../src/ugpt/ugpt-settings.service.js';
import { insertUser, openServiceModule, type ServiceTestModule } from './support-db.js';

// iidx SP: score, session and profile algorithms are all ktLampRating (the default) and BPI.
const SP = findGpt('iidx', 'SP')!;
const DP = findGpt('iidx', 'DP')!;
const DEFAULTS = { preferredScoreAlg: null, preferredSessionAlg: null, preferredProfileAlg: null, stats: [] };
const STAT = { mode: 'folder', folderID: 'f1', property: 'lamp', gte: 4 } as const;

describe('UgptSettingsService', () => {
  let t: ServiceTestModule;
  let settings: UgptSettingsService;

  beforeAll(async () => {
    t = await openServiceModule([UgptModule.register({ schedule: false })]);
    settings = t.module.get(UgptSettingsService);
  });
  afterEach(() => t.clearUsers());
  afterAll(() => t.close());

  it('gives the defaults to a user who never saved any', async () => {
    const user = await insertUser(t.db, 'fresh');
    expect(await settings.get(user.id, SP)).toEqual(DEFAULTS);
  });

  it('sets what is given, keeps what is not, null unsets, and an empty patch changes nothing', async () => {
    const user = await insertUser(t.db, 'chooser');
    expect(await settings.patch(user.id, SP, { preferredScoreAlg: 'BPI' })).toEqual({ ...DEFAULTS, preferredScoreAlg: 'BPI' });
    expect(await settings.patch(user.id, SP, { preferredSessionAlg: 'ktLampRating', preferredProfileAlg: 'BPI' })).toEqual({
      ...DEFAULTS,
      preferredScoreAlg: 'BPI',
      preferredSessionAlg: 'ktLampRating',
      preferredProfileAlg: 'BPI',
    });
    const unset = { ...DEFAULTS, preferredSessionAlg: 'ktLampRating', preferredProfileAlg: 'BPI' };
    expect(await settings.patch(user.id, SP, { preferredScoreAlg: null })).toEqual(unset);
    expect(await settings.patch(user.id, SP, {})).toEqual(unset);
    expect(await settings.get(user.id, SP)).toEqual(unset);
    // Settings are per GPT.
    expect(await settings.get(user.id, DP)).toEqual(DEFAULTS);
  });

  it('400s a name that is not an algorithm of its kind, naming the valid ones, and writes none of the patch', async () => {
    const user = await insertUser(t.db, 'typo');
    const patch = settings.patch(user.id, SP, { preferredScoreAlg: 'BPI', preferredProfileAlg: 'bpi' });
    await expect(patch).rejects.toThrow(BadRequestException);
    await expect(patch).rejects.toThrow(
      "Invalid preferredProfileAlg 'bpi'. Expected one of: ktLampRating, BPI or null (Profile rating algorithms of iidx SP: ktLampRating, BPI).",
    );
    await expect(settings.patch(user.id, SP, { preferredSessionAlg: 'constructor' })).rejects.toThrow("Invalid preferredSessionAlg 'constructor'.");
    expect(await settings.get(user.id, SP)).toEqual(DEFAULTS);
  });

  it('replaces the showcase stats without touching the preferences, and a patch keeps the stats', async () => {
    const user = await insertUser(t.db, 'shower');
    expect(await settings.setStats(user.id, SP, [STAT])).toEqual([STAT]);
    expect(await settings.get(user.id, SP)).toEqual({ ...DEFAULTS, stats: [STAT] });
    await settings.patch(user.id, SP, { preferredProfileAlg: 'BPI' });
    expect(await settings.setStats(user.id, SP, [])).toEqual([]);
    expect(await settings.get(user.id, SP)).toEqual({ ...DEFAULTS, preferredProfileAlg: 'BPI' });
    expect(await settings.patch(user.id, SP, { preferredScoreAlg: 'BPI' })).toEqual({ ...DEFAULTS, preferredScoreAlg: 'BPI', preferredProfileAlg: 'BPI' });
  });
});
