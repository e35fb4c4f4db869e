import { Module } from '@nestjs/common';
import { ReadCache } from './read-cache.service.js';
import { WriteBarrierInterceptor } from './write-barrier.interceptor.js';

/** Finished answers of the @CachedRead routes, and what keeps them current (see ReadCache); AppModule applies ReadCacheMiddleware. */
@Module({
  providers: [ReadCache, WriteBarrierInterceptor],
  exports: [ReadCache, WriteBarrierInterceptor],
})
export class ReadCacheModule {}
