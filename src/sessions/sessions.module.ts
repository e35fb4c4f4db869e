import { Module } from '@nestjs/common';
import { RepositoriesModule } from '../repositories/repositories.module.js';
import { SessionsController } from './sessions.controller.js';
import { SessionsService } from './sessions.service.js';

@Module({
  imports: [RepositoriesModule],
  controllers: [SessionsController],
  providers: [SessionsService],
})
export class SessionsModule {}
