import { Module } from '@nestjs/common';
import { RepositoriesModule } from '../repositories/repositories.module.js';
import { ScoringModule } from '../scoring/scoring.module.js';
import { ScoresController } from './scores.controller.js';
import { ScoresService } from './scores.service.js';

@Module({
  imports: [RepositoriesModule, ScoringModule],
  controllers: [ScoresController],
  providers: [ScoresService],
})
export class ScoresModule {}
