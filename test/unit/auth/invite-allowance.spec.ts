import { describe, expect, it } from '@jest/globals';
import { INVITE_MONTH_MS, inviteAllowance } from '../../../src/auth/invite-allowance.js';

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.UTC(2026, 0, 1);
const TACHI = { batchSize: 2, betaBonus: 5, cap: 100 };

describe('inviteAllowance', () => {
  it('counts whole 28-day months since joining, times the batch size', () => {
    expect(INVITE_MONTH_MS).toBe(28 * DAY);
    // joined today: 0 months
    expect(inviteAllowance({ joinDate: NOW, badges: [] }, NOW, TACHI)).toBe(0);
    // 27 days: still 0 whole months
    expect(inviteAllowance({ joinDate: NOW - 27 * DAY, badges: [] }, NOW, TACHI)).toBe(0);
    // exactly 28 days: 1 month → 2
    expect(inviteAllowance({ joinDate: NOW - 28 * DAY, badges: [] }, NOW, TACHI)).toBe(2);
    // 100 days: floor(100 / 28) = 3 months → 6
    expect(inviteAllowance({ joinDate: NOW - 100 * DAY, badges: [] }, NOW, TACHI)).toBe(6);
    // 84 days: 3 months of 28 days (2 of 30 days) → 6
    expect(inviteAllowance({ joinDate: NOW - 84 * DAY, badges: [] }, NOW, TACHI)).toBe(6);
  });

  it('adds the bonus once for the alpha or beta badge, and nothing for other badges', () => {
    expect(inviteAllowance({ joinDate: NOW, badges: ['beta'] }, NOW, TACHI)).toBe(5);
    expect(inviteAllowance({ joinDate: NOW, badges: ['alpha', 'beta'] }, NOW, TACHI)).toBe(5);
    expect(inviteAllowance({ joinDate: NOW - 56 * DAY, badges: ['alpha'] }, NOW, TACHI)).toBe(9);
    expect(inviteAllowance({ joinDate: NOW - 56 * DAY, badges: ['contributor'] }, NOW, TACHI)).toBe(4);
  });

  it('caps the total, bonus included', () => {
    // 1,000 days: 35 months → 70, + 5 = 75, under the cap of 100
    expect(inviteAllowance({ joinDate: NOW - 1000 * DAY, badges: ['beta'] }, NOW, TACHI)).toBe(75);
    // 2,000 days: 71 months → 142, capped at 100
    expect(inviteAllowance({ joinDate: NOW - 2000 * DAY, badges: [] }, NOW, TACHI)).toBe(100);
    expect(inviteAllowance({ joinDate: NOW, badges: ['beta'] }, NOW, { batchSize: 2, betaBonus: 5, cap: 3 })).toBe(3);
  });

  it('gives nothing for a join date in the future (a clock skew)', () => {
    expect(inviteAllowance({ joinDate: NOW + 40 * DAY, badges: [] }, NOW, TACHI)).toBe(0);
  });
});
