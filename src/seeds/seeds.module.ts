import { Module } from '@nestjs/common';
import { SeedLoader } from './seed-loader.js';

/** The Tachi-format seed loader (the CLI's `seeds`). */
@Module({ providers: [SeedLoader], exports: [SeedLoader] })
export class SeedsModule {}
