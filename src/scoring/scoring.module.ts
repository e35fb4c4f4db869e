import { Module } from '@nestjs/common';
import { RepositoriesModule } from '../repositories/repositories.module.js';
import { ImportLockService } from './import-lock.service.js';
import { ScoreEditService } from './score-edit.service.js';
import { ScoreRemovalService } from './score-removal.service.js';

/** The write-side core as injectables, for the modules that change scores. */
@Module({
  imports: [RepositoriesModule],
  providers: [ImportLockService, ScoreEditService, ScoreRemovalService],
  exports: [ImportLockService, ScoreEditService, ScoreRemovalService],
})
export class ScoringModule {}
