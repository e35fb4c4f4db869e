import { reevaluateAllTargets } from '../targets/target-progress.writer.js';
import { Injectable } from '@nestjs/common';
import { Database } from '../../database/database.js';
import { countScores, recalcScores, resyncPersonalBests, type PbFilter, type ScoreFilter } from './recalc.js';

/** Repairs derived data from the scores stored: recalc (admin route and CLI) and PB resync. */
@Injectable()
export class MaintenanceService {
  constructor(private readonly database: Database) {}

  countScores(filter: ScoreFilter): Promise<number> {
    return countScores(this.database, filter);
  }

  recalc(filter: ScoreFilter, onBatch?: (done: number) => void): Promise<number> {
    return recalcScores(this.database, filter, onBatch);
  }

  /** Re-evaluates every goal subscription of every user (admin reprocess-all-goals). */
  reprocessAllGoals(): Promise<{ profiles: number; moved: number }> {
    return reevaluateAllTargets(this.database.db, (work) => this.database.transaction(work));
  }

  resyncPbs(userIDs: readonly number[] | undefined, filter: PbFilter): Promise<number> {
    return resyncPersonalBests(this.database, userIDs, filter);
  }
}
