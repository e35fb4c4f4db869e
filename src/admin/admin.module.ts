import { Module } from '@nestjs/common';
import { RepositoriesModule } from '../repositories/repositories.module.js';
import { ScoringModule } from '../scoring/scoring.module.js';
import { AdminController } from './admin.controller.js';
import { AdminService } from './admin.service.js';
import { LogLevelService } from './log-level.service.js';

/** /admin (spec 4.14): the operations of administrators, also run by the CLI. */
@Module({ imports: [RepositoriesModule, ScoringModule], controllers: [AdminController], providers: [AdminService, LogLevelService], exports: [AdminService] })
export class AdminModule {}
