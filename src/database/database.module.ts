import { Global, Module, type DynamicModule, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { ChangeFeed } from './change-feed.js';
import { Database } from './database.js';
import { EmbeddedStatistics } from './embedded-statistics.js';

/**
 * Provides the already-opened Database, and its ChangeFeed (started by whoever needs it), to every
 * module. Whoever opened the database decides whether the app closes it.
 */
@Global()
@Module({})
export class DatabaseModule {
  static forDatabase(database: Database, options: { closeOnShutdown: boolean }): DynamicModule {
    const feed = new ChangeFeed(database);
    class ReplicaStarter implements OnApplicationBootstrap {
      async onApplicationBootstrap() {
        // Requests are routed by the feed's positions: the replicas start with it.
        await database.replicas?.start(feed);
      }
    }
    class DatabaseCloser implements OnApplicationShutdown {
      async onApplicationShutdown() {
        await feed.stop();
        if (options.closeOnShutdown) await database.close();
      }
    }
    return {
      module: DatabaseModule,
      providers: [{ provide: Database, useValue: database }, { provide: ChangeFeed, useValue: feed }, DatabaseCloser, ReplicaStarter, EmbeddedStatistics],
      exports: [Database, ChangeFeed, EmbeddedStatistics],
    };
  }
}
