import { Module } from '@nestjs/common';
import { RepositoriesModule } from '../repositories/repositories.module.js';
import { SessionsController } from './sessions.controller.js';
import { SessionsService } from './sessions.service.js';
import { UserSessionsController } from './user-sessions.controller.js';

@Module({
  imports: [RepositoriesModule],
  controllers: [SessionsController, UserSessionsController],
  providers: [SessionsService],
})
export class SessionsModule {}
