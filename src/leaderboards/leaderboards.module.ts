import { Module } from '@nestjs/common';
import { CatalogModule } from '../catalog/catalog.module.js';
import { GameStatsRepository } from '../ugpt/game-stats.repository.js';
import { GptLeaderboardsController } from './gpt-leaderboards.controller.js';
import { GptLeaderboardsRepository } from './gpt-leaderboards.repository.js';
import { GptLeaderboardsService } from './gpt-leaderboards.service.js';
import { RelatedDocuments } from './related-documents.js';
import { UgptProfileController } from './ugpt-profile.controller.js';
import { UgptProfileRepository } from './ugpt-profile.repository.js';
import { UgptProfileService } from './ugpt-profile.service.js';

/** Read views of GPTs (leaderboards, chart PBs, activity) and of one user on a GPT (profile, PBs, scores). */
@Module({
  imports: [CatalogModule],
  controllers: [GptLeaderboardsController, UgptProfileController],
  providers: [GptLeaderboardsService, GptLeaderboardsRepository, UgptProfileService, UgptProfileRepository, RelatedDocuments, GameStatsRepository],
})
export class LeaderboardsModule {}
