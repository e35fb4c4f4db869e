import { Module } from '@nestjs/common';
import { RepositoriesModule } from '../repositories/repositories.module.js';
import { TachiController } from './tachi.controller.js';
import { TachiService } from './tachi.service.js';

/** Routes only API_PROFILE=tachi serves (AppModule imports this module under that profile only). */
@Module({ imports: [RepositoriesModule], controllers: [TachiController], providers: [TachiService] })
export class TachiModule {}
