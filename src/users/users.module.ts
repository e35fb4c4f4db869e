import { Module } from '@nestjs/common';
import { RepositoriesModule } from '../repositories/repositories.module.js';
import { ScoringModule } from '../scoring/scoring.module.js';
import { IntegrationsController } from './integrations.controller.js';
import { IntegrationsService } from './integrations.service.js';
import { UserImagesController } from './user-images.controller.js';
import { UserImagesService } from './user-images.service.js';
import { UsersController } from './users.controller.js';
import { UsersService } from './users.service.js';

@Module({
  // Uploads (profile pictures, banners) take their limits from FileUpload (http/file-upload.ts).
  imports: [RepositoriesModule, ScoringModule],
  controllers: [UsersController, UserImagesController, IntegrationsController],
  providers: [UsersService, UserImagesService, IntegrationsService],
  exports: [UsersService],
})
export class UsersModule {}
