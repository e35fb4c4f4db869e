import { Module } from '@nestjs/common';
import { RepositoriesModule } from '../repositories/repositories.module.js';
import { StorageModule } from '../storage/storage.module.js';
import { AccountRemovalService } from './account-removal.service.js';
import { ImportLockService } from './import-lock.service.js';
import { MaintenanceService } from './maintenance.service.js';
import { RerankService } from './rerank.service.js';
import { ScoreEditService } from './score-edit.service.js';
import { ScoreRemovalService } from './score-removal.service.js';
import { TargetEvaluationService } from './targets/target-evaluation.service.js';
import { TargetSubscriptionsService } from './targets/target-subscriptions.service.js';

const SERVICES = [
  AccountRemovalService,
  ImportLockService,
  MaintenanceService,
  RerankService,
  ScoreEditService,
  ScoreRemovalService,
  TargetEvaluationService,
  TargetSubscriptionsService,
];

/** The write-side core as injectables, for the modules and processes that change scores. */
// Storage: removing an account deletes its uploaded images.
@Module({ imports: [RepositoriesModule, StorageModule], providers: SERVICES, exports: SERVICES })
export class ScoringModule {}
