import { Module } from '@nestjs/common';
import { RepositoriesModule } from '../repositories/repositories.module.js';
import { CatalogService } from './catalog.service.js';
import { GamesController } from './games.controller.js';
import { GptCatalogController } from './gpt-catalog.controller.js';
import { GptLeaderboardsController } from './gpt-leaderboards.controller.js';
import { GptLeaderboardsService } from './gpt-leaderboards.service.js';
import { GptCountsService } from './gpt-counts.service.js';

/** Every `/games` and `/games/:game/:playtype` route: game configs, the catalog (songs, charts, folders, tables) and GPT leaderboards. */
@Module({
  imports: [RepositoriesModule],
  controllers: [GamesController, GptCatalogController, GptLeaderboardsController],
  providers: [CatalogService, GptLeaderboardsService, GptCountsService],
})
export class GamesModule {}
