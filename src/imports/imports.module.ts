import { Module } from '@nestjs/common';
import { RepositoriesModule } from '../repositories/repositories.module.js';
import { ScoringModule } from '../scoring/scoring.module.js';
import { WebhooksModule } from '../webhooks/webhooks.module.js';
import { ImportController } from './import.controller.js';
import { ImportPipeline } from './import-pipeline.js';
import { ImportReadService } from './import-read.service.js';
import { IMPORT_TYPES } from './import-types/registry.js';
import { IMPORT_TYPES_TOKEN } from './import-types/types.js';
import { ImportsController } from './imports.controller.js';
import { UserImportsController } from './user-imports.controller.js';
import { ImportsService } from './imports.service.js';
import { OrphansService } from './orphans.service.js';
import { RevertService } from './revert.service.js';

/** `/import` and `/imports`: the registered import types, the pipeline, queue, orphans and revert (the score hooks' routes are src/ir/'s). */
@Module({
  // File uploads take their limits from FileUpload (http/file-upload.ts).
  imports: [RepositoriesModule, ScoringModule, WebhooksModule],
  controllers: [ImportController, ImportsController, UserImportsController],
  providers: [ImportPipeline, ImportsService, OrphansService, RevertService, ImportReadService, { provide: IMPORT_TYPES_TOKEN, useValue: IMPORT_TYPES }],
  exports: [ImportsService, OrphansService, ImportPipeline],
})
export class ImportsModule {}
