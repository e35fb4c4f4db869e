import { scope } from '../../database/change-feed.js';
import { resolveGpt } from '../gpt.decorator.js';
import type { ApiRequest } from '../request.js';

/**
 * The change scopes of the cached routes' answers, by what each route reads. Every document an
 * answer embeds adds its own scope: a chart's PBs carry ranks among every player there, a user
 * document changes with its user.
 */

function gptOf(req: ApiRequest) {
  return resolveGpt(String(req.params.game), String(req.params.playtype));
}

/** A user on a GPT: the user (the `:userID` the URL names), their rows there, and the game's catalog. */
export function ugptScopes(req: ApiRequest): string[] {
  const { game, playtype } = gptOf(req);
  const user = req.targetUser!.id;
  return [scope.user(user), scope.ugpt(user, game, playtype), scope.catalog(game)];
}

/** PBs shown with their chart ranks: each chart's PBs as well. */
export function ugptPbScopes(answer: { charts: readonly { chartID: string }[] }, req: ApiRequest): string[] {
  return [...ugptScopes(req), ...answer.charts.map((c) => scope.chart(c.chartID))];
}

/** Where a user stands among a GPT's profiles. */
export function standingScopes(answer: { users: readonly { id: number }[] }, req: ApiRequest): string[] {
  const { game, playtype } = gptOf(req);
  return [...ugptScopes(req), scope.gptProfiles(game, playtype), ...answer.users.map((u) => scope.user(u.id))];
}

/** A GPT's profile leaderboard. */
export function gptLeaderboardScopes(answer: { users: readonly { id: number }[] }, req: ApiRequest): string[] {
  const { game, playtype } = gptOf(req);
  return [scope.gptProfiles(game, playtype), ...answer.users.map((u) => scope.user(u.id))];
}

/** A chart's PB leaderboard. */
export function chartPbScopes(answer: { users: readonly { id: number }[] }, req: ApiRequest): string[] {
  const { game } = gptOf(req);
  return [scope.catalog(game), scope.chart(String(req.params.chartID)), ...answer.users.map((u) => scope.user(u.id))];
}

/** The GPT's charts by popularity. */
export function chartListScopes(_answer: unknown, req: ApiRequest): string[] | undefined {
  // Only the requester's songs: an answer for one player, which the cache (keyed by URL) must not keep.
  if (req.query.requesterHasPlayed !== undefined) return undefined;
  const { game, playtype } = gptOf(req);
  return [scope.catalog(game), scope.chartPopularity(game, playtype)];
}
