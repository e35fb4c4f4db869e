/** The 28-day month of the invite allowance (as Tachi's). */
export const INVITE_MONTH_MS = 28 * 24 * 60 * 60 * 1000;

export interface InviteRules {
  /** Invites per whole month since joining. */
  batchSize: number;
  /** Extra invites for the alpha and beta badges. */
  betaBonus: number;
  /** The most a user may create in all. */
  cap: number;
}

/**
 * How many invites a user may create in all: whole 28-day months since joining × the batch size,
 * plus the bonus for an alpha or beta badge, at most the cap.
 */
export function inviteAllowance(user: { joinDate: number; badges: readonly string[] }, now: number, rules: InviteRules): number {
  const months = Math.max(0, Math.floor((now - user.joinDate) / INVITE_MONTH_MS));
  const bonus = user.badges.includes('alpha') || user.badges.includes('beta') ? rules.betaBonus : 0;
  return Math.min(months * rules.batchSize + bonus, rules.cap);
}
