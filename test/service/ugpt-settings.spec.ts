import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { BadRequestException } from '@nestjs/common';
import { findGpt } from '../../src/game-support/registry.js';
import { UgptModule } from '../../src/ugpt/ugpt.module.js';
import { UgptSettingsService } from '../../src/ugpt/ugpt-settings.service.js';
import { insertUser, openServiceModule, type ServiceTestModule } from './support-db.js';

// iidx SP: score, session and profile algorithms are all ktLampRating (the default) and BPI.
const SP = findGpt('iidx', 'SP')!;
const DP = findGpt('iidx', 'DP')!;
const BMS = findGpt('bms', '7K')!;
const JUBEAT = findGpt('jubeat', 'Single')!;
const SDVX = findGpt('sdvx', 'Single')!;
const CHUNITHM = findGpt('chunithm', 'Single')!;
// iidx's own preferences start at Tachi's defaults.
const DEFAULTS = {
  preferredScoreAlg: null,
  preferredSessionAlg: null,
  preferredProfileAlg: null,
  stats: [],
  preferredDefaultEnum: null,
  defaultTable: null,
  preferredRanking: null,
  gameSpecific: { display2DXTra: false, bpiTarget: 0 },
};
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

  describe("the GPT's own preferences (gameSpecific) and the client's defaults", () => {
    it('start at each GPT’s defaults: iidx and bms have some, sdvx, jubeat and chunithm none', async () => {
      const user = await insertUser(t.db, 'defaults');
      expect((await settings.get(user.id, SP)).gameSpecific).toEqual({ display2DXTra: false, bpiTarget: 0 });
      expect((await settings.get(user.id, BMS)).gameSpecific).toEqual({ displayTables: [] });
      for (const gpt of [SDVX, JUBEAT, CHUNITHM]) expect((await settings.get(user.id, gpt)).gameSpecific).toEqual({});
    });

    it('merges the keys sent into the stored ones; null puts every key back to its default', async () => {
      const user = await insertUser(t.db, 'merger');
      expect((await settings.patch(user.id, SP, { gameSpecific: { bpiTarget: 40 } })).gameSpecific).toEqual({ display2DXTra: false, bpiTarget: 40 });
      expect((await settings.patch(user.id, SP, { gameSpecific: { display2DXTra: true } })).gameSpecific).toEqual({ display2DXTra: true, bpiTarget: 40 });
      expect((await settings.patch(user.id, SP, { preferredScoreAlg: 'BPI' })).gameSpecific).toEqual({ display2DXTra: true, bpiTarget: 40 });
      expect((await settings.patch(user.id, SP, { gameSpecific: null })).gameSpecific).toEqual({ display2DXTra: false, bpiTarget: 0 });
      expect((await settings.get(user.id, SP)).preferredScoreAlg).toBe('BPI');
      expect((await settings.patch(user.id, JUBEAT, { gameSpecific: { jubilityTarget: 165.1 } })).gameSpecific).toEqual({ jubilityTarget: 165.1 });
      expect((await settings.patch(user.id, BMS, { gameSpecific: { displayTables: ['insane', 'normal'] } })).gameSpecific).toEqual({
        displayTables: ['insane', 'normal'],
      });
      expect((await settings.patch(user.id, SDVX, { gameSpecific: { vf6Target: 0.5 } })).gameSpecific).toEqual({ vf6Target: 0.5 });
      // Per GPT: DP keeps its defaults.
      expect((await settings.get(user.id, DP)).gameSpecific).toEqual({ display2DXTra: false, bpiTarget: 0 });
    });

    it.each([
      ['iidx', { bpiTarget: 101 }, SP, /gameSpecific\.bpiTarget.*iidx SP takes: display2DXTra, bpiTarget/],
      ['iidx', { bpiTarget: -15.5 }, SP, /gameSpecific\.bpiTarget/],
      ['iidx', { display2DXTra: 'yes' }, SP, /gameSpecific\.display2DXTra/],
      ['iidx', { vf6Target: 0.3 }, SP, /Invalid gameSpecific: .*vf6Target/],
      ['sdvx', { vf6Target: 0.51 }, SDVX, /gameSpecific\.vf6Target/],
      ['jubeat', { jubilityTarget: -1 }, JUBEAT, /gameSpecific\.jubilityTarget/],
      ['bms', { displayTables: 'insane' }, BMS, /gameSpecific\.displayTables/],
      ['chunithm', { anything: 1 }, CHUNITHM, /chunithm Single has no game-specific preferences/],
    ])('400s a %s gameSpecific the GPT does not take (%j) and writes nothing', async (_game, body, gpt, message) => {
      const user = await insertUser(t.db, `bad${Math.floor(Math.random() * 1e9)}`);
      const patch = settings.patch(user.id, gpt, { preferredScoreAlg: gpt.defaultScoreRatingAlg, gameSpecific: body });
      await expect(patch).rejects.toThrow(BadRequestException);
      await expect(patch).rejects.toThrow(message);
      const after = await settings.get(user.id, gpt);
      expect([after.preferredScoreAlg, after.gameSpecific]).toEqual([null, gpt.preferences?.defaults ?? {}]);
    });

    it('takes grade or lamp as preferredDefaultEnum, global or rival as preferredRanking; null unsets', async () => {
      const user = await insertUser(t.db, 'enums');
      const set = await settings.patch(user.id, SP, { preferredDefaultEnum: 'lamp', preferredRanking: 'rival' });
      expect(set).toEqual({ ...DEFAULTS, preferredDefaultEnum: 'lamp', preferredRanking: 'rival' });
      expect(await settings.patch(user.id, SP, { preferredDefaultEnum: null })).toEqual({ ...DEFAULTS, preferredRanking: 'rival' });
      await expect(settings.patch(user.id, SP, { preferredDefaultEnum: 'score' })).rejects.toThrow(
        "Invalid preferredDefaultEnum 'score'. Expected one of: grade, lamp or null",
      );
    });

    it('400s a defaultTable that is not a table of the GPT', async () => {
      const user = await insertUser(t.db, 'tables');
      await expect(settings.patch(user.id, SP, { defaultTable: 'no-such-table' })).rejects.toThrow(
        "The table 'no-such-table' does not exist on iidx SP, so it cannot be the default table.",
      );
      expect(await settings.patch(user.id, SP, { defaultTable: null })).toEqual(DEFAULTS);
    });
  });
});
