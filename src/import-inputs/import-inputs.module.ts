import { Module } from '@nestjs/common';
import { RepositoriesModule } from '../repositories/repositories.module.js';
import { ImportInputsController } from './import-inputs.controller.js';
import { ImportInputsScheduler } from './import-inputs.scheduler.js';
import { ImportInputsService } from './import-inputs.service.js';

/** Completed imports' kept inputs: GET /cdn/score-import-input/:importID and the retention sweep (IMPORT_INPUT_RETENTION_DAYS). */
@Module({
  imports: [RepositoriesModule],
  controllers: [ImportInputsController],
  providers: [ImportInputsService, ImportInputsScheduler],
  exports: [ImportInputsService],
})
export class ImportInputsModule {}
