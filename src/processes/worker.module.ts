import { Module, type DynamicModule } from '@nestjs/common';
import { ImportsModule } from '../imports/imports.module.js';
import { IntegrationsModule } from '../integrations/integrations.module.js';
import { RankRefresherModule } from '../scoring/pbs/rank-refresher.module.js';
import { CoreModule, type CoreOptions } from './core.module.js';

/** `npm run worker`'s application: the core, the imports module (whose ImportsService runs the queued imports) and the chart rank refresher. */
@Module({})
export class WorkerModule {
  static register(options: CoreOptions): DynamicModule {
    return { module: WorkerModule, imports: [CoreModule.register(options), ImportsModule, IntegrationsModule, RankRefresherModule] };
  }
}
