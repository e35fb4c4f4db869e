import { Module } from '@nestjs/common';
import { RepositoriesModule } from '../repositories/repositories.module.js';
import { ScoringModule } from '../scoring/scoring.module.js';
import { GptTargetsController } from './gpt-targets.controller.js';
import { TargetsService } from './targets.service.js';
import { UgptTargetsController } from './ugpt-targets.controller.js';

/**
 * Goals, quests and questlines: `/games/:game/:playtype/targets` and
 * `/users/:userID/games/:game/:playtype/targets`. Evaluation and subscription writes are the
 * scoring core's (src/scoring/targets/); this module serves them.
 */
@Module({
  imports: [RepositoriesModule, ScoringModule],
  controllers: [GptTargetsController, UgptTargetsController],
  providers: [TargetsService],
})
export class TargetsModule {}
