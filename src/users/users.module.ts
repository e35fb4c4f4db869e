import { Module } from '@nestjs/common';
import { RepositoriesModule } from '../repositories/repositories.module.js';
import { ScoringModule } from '../scoring/scoring.module.js';
import { UserImagesController } from './user-images.controller.js';
import { UserImagesService } from './user-images.service.js';
import { UsersController } from './users.controller.js';
import { UsersService } from './users.service.js';

@Module({
  // Uploads (profile pictures, banners) take their limits from FileUpload (http/file-upload.ts).
  imports: [RepositoriesModule, ScoringModule],
  controllers: [UsersController, UserImagesController],
  providers: [UsersService, UserImagesService],
  exports: [UsersService],
})
export class UsersModule {}
