import { Controller, Get, Param } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { resolveGame, resolveGpt } from '../http/gpt.decorator.js';
import { GameConfigDocument, toGameConfig, toGptConfigResponse } from '../presenters/game-config.presenter.js';
import { GAMES } from '../game-support/registry.js';
import { GamesListResponse, GptConfigResponse } from './dto/games.responses.js';
import { GptCountsService } from './gpt-counts.service.js';

@ApiTags('games')
@ApiExtraModels(GameConfigDocument)
@Controller('games')
export class GamesController {
  constructor(private readonly counts: GptCountsService) {}

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
  async gpt(@Param('game') game: string, @Param('playtype') playtype: string): Promise<GptConfigResponse> {
    const gpt = resolveGpt(game, playtype);
    return toGptConfigResponse({ gpt, counts: await this.counts.counts(gpt) });
  }
}
