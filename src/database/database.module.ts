import { Global, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { Database } from './database.js';
import { EmbeddedStatistics } from './embedded-statistics.js';

/** Provides the already-opened Database to every module. Whoever opened it decides whether the app closes it. */
@Global()
@Module({})
export class DatabaseModule {
  static forDatabase(database: Database, options: { closeOnShutdown: boolean }): DynamicModule {
    class DatabaseCloser implements OnApplicationShutdown {
      async onApplicationShutdown() {
        if (options.closeOnShutdown) await database.close();
      }
    }
    return {
      module: DatabaseModule,
      providers: [{ provide: Database, useValue: database }, DatabaseCloser, EmbeddedStatistics],
      exports: [Database, EmbeddedStatistics],
    };
  }
}
