import { Module } from '@nestjs/common';
import { ImportsModule } from '../imports/imports.module.js';
import { RepositoriesModule } from '../repositories/repositories.module.js';
import { BarbatosController } from './barbatos/barbatos.controller.js';
import { BeatorajaController } from './beatoraja/beatoraja.controller.js';
import { BeatorajaIrService } from './beatoraja/beatoraja.service.js';
import { FervidexController } from './fervidex/fervidex.controller.js';
import { FervidexService } from './fervidex/fervidex.service.js';
import { KshookSv6cStaticController } from './kshook/kshook-sv6c-static.controller.js';
import { KshookSv6cController } from './kshook/kshook-sv6c.controller.js';
import { Lr2hookController } from './lr2hook/lr2hook.controller.js';
import { Lr2hookService } from './lr2hook/lr2hook.service.js';
import { UscIrController } from './usc/usc-ir.controller.js';
import { UscIrService } from './usc/usc-ir.service.js';

/**
 * The score hooks' routes (`/ir/…` and `/api/v1/ir/…`), one folder per hook: each reads its client's
 * request, submits it as an import of its import type (src/imports/import-types/) and answers in the
 * shape its client reads. `ir/direct-manual` is ImportController's.
 */
@Module({
  imports: [RepositoriesModule, ImportsModule],
  controllers: [
    BarbatosController,
    BeatorajaController,
    FervidexController,
    KshookSv6cController,
    KshookSv6cStaticController,
    Lr2hookController,
    UscIrController,
  ],
  providers: [BeatorajaIrService, FervidexService, Lr2hookService, UscIrService],
})
export class IrModule {}
