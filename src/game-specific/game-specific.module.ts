import { Module } from '@nestjs/common';
import { RepositoriesModule } from '../repositories/repositories.module.js';
import { BmsToolsController } from './bms/bms-tools.controller.js';
import { BmsToolsService } from './bms/bms-tools.service.js';
import { BmsUserController } from './bms/bms-user.controller.js';
import { BmsUserService } from './bms/bms-user.service.js';
import { IidxToolsController } from './iidx/iidx-tools.controller.js';
import { IidxToolsService } from './iidx/iidx-tools.service.js';
import { JubilityController } from './jubeat/jubility.controller.js';
import { JubilityService } from './jubeat/jubility.service.js';

/**
 * The routes of one game each that Tachi's web client calls (its per-game tools): IIDX's
 * e-amusement CSV export and playlists, jubeat's jubility breakdown, BMS's custom tables and
 * Sieglinde charts, a player's best score on a chart by its checksum. Each game's routes live in its folder; served in both API profiles.
 */
@Module({
  imports: [RepositoriesModule],
  controllers: [IidxToolsController, JubilityController, BmsToolsController, BmsUserController],
  providers: [IidxToolsService, JubilityService, BmsToolsService, BmsUserService],
})
export class GameSpecificModule {}
