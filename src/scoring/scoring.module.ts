import { Module } from '@nestjs/common';
import { RepositoriesModule } from '../repositories/repositories.module.js';
import { StorageModule } from '../storage/storage.module.js';
import { AccountRemovalService } from './removal/account-removal.service.js';
import { ImportLockService } from './import-lock.service.js';
import { MaintenanceService } from './maintenance/maintenance.service.js';
import { RerankService } from './pbs/rerank.service.js';
import { ScoreEditService } from './score-edit.service.js';
import { ScoreRemovalService } from './removal/score-removal.service.js';
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

/**
 * The write-side core as injectables, for the modules and processes that change scores. A folder
 * per aggregate: pbs/ (PB merge, chart ranks, the rank refresher, rerank), sessions/, profiles/
 * (game stats: ratings and classes), targets/ (goal and quest progress, subscriptions), removal/
 * (scores, profiles, accounts) and maintenance/ (recalc, PB resync, primary-flag sync); here, what
 * spans them: the import's write transaction (import-write.ts), score annotations and the per-user
 * import lock.
 */
// Storage: removing an account deletes its uploaded images.
@Module({ imports: [RepositoriesModule, StorageModule], providers: SERVICES, exports: SERVICES })
export class ScoringModule {}
