import { Injectable } from '@nestjs/common';
import { Database } from '../../database/database.js';
import { evaluateGoals, type GoalDefinition, type GoalEvaluation } from './goal-evaluation.js';

/** Goal evaluation for the read routes: many goals for one user in one query, outside any write. */
@Injectable()
export class TargetEvaluationService {
  constructor(private readonly database: Database) {}

  evaluate(userID: number, goals: readonly GoalDefinition[]): Promise<Map<string, GoalEvaluation>> {
    return evaluateGoals(this.database.db, userID, goals);
  }
}
