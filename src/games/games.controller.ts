import { Controller, Get, Param } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { resolveGame, resolveGpt } from '../http/gpt.decorator.js';
import { toGameConfig, toGptConfig } from '../presenters/game-config.presenter.js';
import { GAMES } from '../game-support/registry.js';

@ApiTags('games')
@Controller('games')
export class GamesController {
  @Get()
  list() {
    return { supportedGames: GAMES.map((g) => g.game), configs: Object.fromEntries(GAMES.map((g) => [g.game, toGameConfig(g)])) };
  }

  @Get(':game')
  game(@Param('game') game: string) {
    return toGameConfig(resolveGame(game));
  }

  @Get(':game/:playtype')
  gpt(@Param('game') game: string, @Param('playtype') playtype: string) {
    return { config: toGptConfig(resolveGpt(game, playtype)) };
  }
}
