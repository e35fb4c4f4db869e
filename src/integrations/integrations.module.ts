import { Module } from '@nestjs/common';
import { ImportsModule } from '../imports/imports.module.js';
import { RepositoriesModule } from '../repositories/repositories.module.js';
import { FromApiController } from './from-api/from-api.controller.js';
import { FromApiService } from './from-api/from-api.service.js';
import { HookSettingsService } from './hook-settings.service.js';
import { IntegrationsController } from './integrations.controller.js';
import { IntegrationLinksService } from './links.service.js';

/**
 * The players' links to other services (/users/:userID/integrations/…), the hooks' settings, and
 * POST /import/from-api with the fetch step it registers with ImportsService (so the worker, which
 * imports this module too, runs it for queued syncs). SecretsService comes from CoreModule.
 */
@Module({
  imports: [RepositoriesModule, ImportsModule],
  controllers: [IntegrationsController, FromApiController],
  providers: [IntegrationLinksService, HookSettingsService, FromApiService],
  exports: [FromApiService],
})
export class IntegrationsModule {}
