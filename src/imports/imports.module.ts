import { Module } from '@nestjs/common';
import { MulterModule } from '@nestjs/platform-express';
import { AppConfig } from '../config/app-config.js';
import { RepositoriesModule } from '../repositories/repositories.module.js';
import { ScoringModule } from '../scoring/scoring.module.js';
import { ImportController } from './import.controller.js';
import { ImportPipeline } from './import-pipeline.js';
import { ImportReadService } from './import-read.service.js';
import { ImportsController } from './imports.controller.js';
import { ImportsService } from './imports.service.js';
import { OrphansService } from './orphans.service.js';
import { RevertService } from './revert.service.js';

@Module({
  imports: [
    RepositoriesModule,
    ScoringModule,
    MulterModule.registerAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({ limits: { fileSize: config.IMPORT_FILE_LIMIT_BYTES, files: 1, fields: 10 } }),
    }),
  ],
  controllers: [ImportController, ImportsController],
  providers: [ImportPipeline, ImportsService, OrphansService, RevertService, ImportReadService],
  exports: [ImportsService, OrphansService, ImportPipeline],
})
export class ImportsModule {}
