import { Module, type DynamicModule } from '@nestjs/common';
import { ImportsModule } from '../imports/imports.module.js';
import { CoreModule, type CoreOptions } from './core.module.js';

/** `npm run worker`'s application: the core and the imports module, whose ImportsService runs the queued imports. */
@Module({})
export class WorkerModule {
  static register(options: CoreOptions): DynamicModule {
    return { module: WorkerModule, imports: [CoreModule.register(options), ImportsModule] };
  }
}
