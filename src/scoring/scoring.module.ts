import { Module } from '@nestjs/common';
import { RerankService } from './rerank.service.js';

/** The write-side core's injectable services. */
@Module({ providers: [RerankService], exports: [RerankService] })
export class ScoringModule {}
