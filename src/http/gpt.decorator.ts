import { createParamDecorator, NotFoundException, type ExecutionContext } from '@nestjs/common';
import { findGame, GAMES } from '../game-support/registry.js';
import type { GameSupport, GptSupport } from '../game-support/types.js';

export function resolveGame(game: string): GameSupport {
  const support = findGame(game);
  if (!support) throw new NotFoundException(`Unknown game '${game}'. Supported games: ${GAMES.map((g) => g.game).join(', ')}.`);
  return support;
}

/** The GptSupport of a route's :game and :playtype; 404 naming the valid choices otherwise. */
export function resolveGpt(game: string, playtype: string): GptSupport {
  const support = resolveGame(game);
  // the playtype list, not a property lookup: "constructor" or "__proto__" must not reach the prototype
  const gpt = support.playtypes.includes(playtype) ? support.gpts[playtype] : undefined;
  if (!gpt) throw new NotFoundException(`${support.name} has no playtype '${playtype}'. Valid playtypes: ${support.playtypes.join(', ')}.`);
  return gpt;
}

/** Injects the GptSupport named by the route's :game/:playtype. */
export const Gpt = createParamDecorator((_: unknown, ctx: ExecutionContext): GptSupport => {
  const params = ctx.switchToHttp().getRequest<{ params: Record<string, string> }>().params;
  return resolveGpt(params.game, params.playtype);
});
