import { Module } from '@nestjs/common';
import { MulterModule } from '@nestjs/platform-express';
import { AppConfig } from '../config/app-config.js';
import { RepositoriesModule } from '../repositories/repositories.module.js';
import { ScoringModule } from '../scoring/scoring.module.js';
import { IntegrationsController } from './integrations.controller.js';
import { IntegrationsService } from './integrations.service.js';
import { UserImagesController } from './user-images.controller.js';
import { UserImagesService } from './user-images.service.js';
import { UsersController } from './users.controller.js';
import { UsersService } from './users.service.js';

@Module({
  imports: [
    RepositoriesModule,
    ScoringModule,
    MulterModule.registerAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({ limits: { fileSize: config.IMAGE_UPLOAD_LIMIT_BYTES, files: 1, fields: 10 } }),
    }),
  ],
  controllers: [UsersController, UserImagesController, IntegrationsController],
  providers: [UsersService, UserImagesService, IntegrationsService],
  exports: [UsersService],
})
export class UsersModule {}
