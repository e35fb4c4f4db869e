import { Module } from '@nestjs/common';
import { RankRefresherService } from './rank-refresher.service.js';

/** The background chart rank refresher, for the processes that serve or import (not the CLI). */
@Module({ providers: [RankRefresherService] })
export class RankRefresherModule {}
