import { Injectable } from '@nestjs/common';
import { Database } from '../../database/database.js';
import { rerankAll, type RerankResult } from './rerank.js';

/** Repairs every chart's PB ranks (the CLI's `rerank`): see rerankAll. */
@Injectable()
export class RerankService {
  constructor(private readonly database: Database) {}

  /** Reranks the PBs of these games, or of every game. */
  rerank(games?: readonly string[]): Promise<RerankResult> {
    return rerankAll(this.database, games);
  }
}
