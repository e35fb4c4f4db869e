import { Controller, Get, Param } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { resolveGame, resolveGpt } from '../http/gpt.decorator.js';
import { GameConfigDocument, toGameConfig, toGptConfig } from '../presenters/game-config.presenter.js';
import { GAMES } from '../game-support/registry.js';
import { GamesListResponse, GptConfigResponse } from './dto/games.responses.js';

@ApiTags('games')
@ApiExtraModels(GameConfigDocument)
@Controller('games')
export class GamesController {
  @Get()
  @ApiOkResponse({ type: GamesListResponse })
  list(): GamesListResponse {
    return { supportedGames: GAMES.map((g) => g.game), configs: Object.fromEntries(GAMES.map((g) => [g.game, toGameConfig(g)])) };
  }

  @Get(':game')
  @ApiOkResponse({ type: GameConfigDocument })
  game(@Param('game') game: string): GameConfigDocument {
    return toGameConfig(resolveGame(game));
  }

  @Get(':game/:playtype')
  @ApiOkResponse({ type: GptConfigResponse })
  gpt(@Param('game') game: string, @Param('playtype') playtype: string): GptConfigResponse {
    return { config: toGptConfig(resolveGpt(game, playtype)) };
  }
}
