import { createParamDecorator, Injectable, NotFoundException, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { ChangeFeed, FeedMemo, scope } from '../database/change-feed.js';
import type { UserRow } from '../http/auth/auth-context.js';
import { resolveGpt } from '../http/gpt.decorator.js';
import type { ApiRequest } from '../http/request.js';
import type { GptSupport } from '../game-support/types.js';
import { GameStatsRepository } from '../repositories/game-stats.repository.js';
import type { GameStatsRow } from '../database/schema.js';

/** A user on a GPT: the route's :userID, :game and :playtype, and the user's game stats there. */
export interface UgptContext {
  user: UserRow;
  gpt: GptSupport;
  stats: GameStatsRow;
}

type UgptRequest = ApiRequest & { ugpt?: UgptContext };

/**
 * For every /users/:userID/games/:game/:playtype route: resolves the GPT (404 unknown game or
 * playtype) and the user's stats on it (404 when the user has not played it). Runs after the
 * global AccessGuard, which has resolved :userID and checked the route's access rules.
 */
@Injectable()
export class UgptGuard implements CanActivate {
  /** A profile's stats row, while the profile is unchanged (see ChangeFeed). */
  private readonly profiles: FeedMemo<GameStatsRow>;

  constructor(
    private readonly gameStats: GameStatsRepository,
    feed: ChangeFeed,
  ) {
    this.profiles = new FeedMemo(feed, 10_000);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<UgptRequest>();
    const user = req.targetUser!;
    const gpt = resolveGpt(String(req.params.game), String(req.params.playtype));
    const stats = await this.profiles.get(
      `${user.id}:${gpt.game}:${gpt.playtype}`,
      () => [scope.ugpt(user.id, gpt.game, gpt.playtype)],
      () => this.gameStats.find(user.id, gpt.game, gpt.playtype),
    );
    if (!stats) throw new NotFoundException(`The user ${user.username} has not played ${gpt.game} ${gpt.playtype}.`);
    req.ugpt = { user, gpt, stats };
    return true;
  }
}

/** The UgptContext UgptGuard resolved. */
export const Ugpt = createParamDecorator((_: unknown, ctx: ExecutionContext): UgptContext => {
  const ugpt = ctx.switchToHttp().getRequest<UgptRequest>().ugpt;
  if (!ugpt) throw new Error('Ugpt used on a route without UgptGuard');
  return ugpt;
});
