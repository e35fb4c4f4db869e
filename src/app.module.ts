import { Inject, Module, RequestMethod, type DynamicModule, type MiddlewareConsumer, type NestModule, type OnApplicationShutdown } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { SchedulerRegistry } from '@nestjs/schedule';
import type { DestinationStream } from 'pino';
import { AccountSettingsModule } from './account-settings/account-settings.module.js';
import { AdminModule } from './admin/admin.module.js';
import { ApiKeysModule } from './api-keys/api-keys.module.js';
import { AuthModule } from './auth/auth.module.js';
import { ClientsModule } from './clients/clients.module.js';
import { AccessGuard } from './http/auth/access.guard.js';
import { AuthMiddleware } from './http/auth/auth.middleware.js';
import { AuthResolver } from './http/auth/auth-resolver.service.js';
import { API_PROFILE } from './http/envelope.js';
import { EnvelopeInterceptor } from './http/envelope.interceptor.js';
import { ApiExceptionFilter, ENVELOPE_MODE } from './http/exception.filter.js';
import { ERROR_SHAPES } from './http/response-shapes.js';
import { IR_ERROR_SHAPES } from './ir/error-shapes.js';
import { IrModule } from './ir/ir.module.js';
import { IntegrationsModule } from './integrations/integrations.module.js';
import { formBodyParser, jsonBodyParser } from './http/json-body.js';
import { BodyTypeGuard } from './http/body-type.js';
import { composeMiddleware, throughNest } from './http/middleware.js';
import { rejectNulBytes } from './http/nul-bytes.js';
import { createSessionHandler, type SessionSetup } from './http/session.js';
import { ApiValidationPipe } from './http/validation.pipe.js';
import { RequestLoggingModule } from './http/logging/logger.module.js';
import { ReadCacheMiddleware } from './http/read-cache/read-cache.middleware.js';
import type { CacheableRequest } from './http/read-cache/cached-read.decorator.js';
import type { ApiRequest } from './http/request.js';
import { PrimaryReadGuard } from './http/read-routing/primary-read.js';
import { ReadRoutingMiddleware } from './http/read-routing/read-routing.middleware.js';
import { ReadCacheModule } from './http/read-cache/read-cache.module.js';
import { WriteBarrierInterceptor } from './http/read-cache/write-barrier.interceptor.js';
import { RateLimitGuard } from './http/rate-limit/rate-limit.guard.js';
import { RateLimitService } from './http/rate-limit/rate-limit.service.js';
import type { RedisConnections } from './common/redis.js';
import { RedisLoginSessions } from './common/redis-login-sessions.js';
import { AppConfig } from './config/app-config.js';
import { GamesModule } from './games/games.module.js';
import { ImportsModule } from './imports/imports.module.js';
import { ImportInputsModule } from './import-inputs/import-inputs.module.js';
import { SearchModule } from './search/search.module.js';
import { GameSpecificModule } from './game-specific/game-specific.module.js';
import { NotificationsModule } from './notifications/notifications.module.js';
import { OAuthModule } from './oauth/oauth.module.js';
import { AppSecretsRepository } from './repositories/app-secrets.repository.js';
import { LoginSessionsRepository } from './repositories/login-sessions.repository.js';
import { RepositoriesModule } from './repositories/repositories.module.js';
import { CoreModule, type CoreOptions } from './processes/core.module.js';
import { RankRefresherModule } from './scoring/pbs/rank-refresher.module.js';
import { ScoresModule } from './scores/scores.module.js';
import { SecretsRotationModule } from './secrets/secrets-rotation.module.js';
import { SeedsModule } from './seeds/seeds.module.js';
import { logDestination } from './common/log-output.js';
import { SessionsModule } from './sessions/sessions.module.js';
import { HomeModule } from './home/home.module.js';
import { StatusModule } from './status/status.module.js';
import { SocialModule } from './social/social.module.js';
import { TachiModule } from './tachi/tachi.module.js';
import { TargetsModule } from './targets/targets.module.js';
import { UgptModule } from './ugpt/ugpt.module.js';
import { UsersModule } from './users/users.module.js';

export interface AppOptions extends CoreOptions {
  redis: RedisConnections | null;
  /** Prefix of this deployment's keys in Redis (sessions, rate limits). */
  keyPrefix: string;
  logDestination?: DestinationStream;
  /** Runs after the app has closed (main.ts closes its Redis connections here). */
  onShutdown?: () => Promise<void>;
}

const SESSION_SETUP = Symbol('SESSION_SETUP');
const APP_OPTIONS = Symbol('APP_OPTIONS');

@Module({})
export class AppModule implements NestModule, OnApplicationShutdown {
  constructor(
    @Inject(SESSION_SETUP) private readonly session: SessionSetup,
    @Inject(APP_OPTIONS) private readonly options: AppOptions,
    private readonly auth: AuthMiddleware,
    private readonly readRouting: ReadRoutingMiddleware,
    private readonly readCache: ReadCacheMiddleware,
  ) {}

  static register(options: AppOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [
        CoreModule.register({ ...options, loginSessions: options.redis ? new RedisLoginSessions(options.redis.sessions, options.keyPrefix) : null }),
        RequestLoggingModule.forConfig(options.config, options.logDestination ?? logDestination(options.config.LOG_FORMAT)),
        RepositoriesModule,
        ReadCacheModule,
        AuthModule,
        UsersModule,
        AccountSettingsModule,
        ClientsModule,
        ApiKeysModule,
        OAuthModule,
        NotificationsModule,
        HomeModule,
        StatusModule.register(options.redis?.rateLimits ?? null),
        GamesModule,
        GameSpecificModule,
        SearchModule,
        // Before ImportsModule: Tachi's GET /imports/failed must be routed before GET /imports/:importID takes "failed" for an id.
        ...(options.config.API_PROFILE === 'tachi' ? [TachiModule] : []),
        ImportsModule,
        ImportInputsModule,
        IrModule,
        IntegrationsModule,
        RankRefresherModule,
        // The seed loader: for `npm run cli -- seeds`, which runs in the server while it runs on the embedded database.
        SeedsModule,
        // For `secrets rotate` sent over the CLI socket.
        SecretsRotationModule,
        ScoresModule,
        SessionsModule,
        UgptModule.register({ schedule: options.config.SNAPSHOT_SCHEDULE }),
        SocialModule,
        TargetsModule,
        AdminModule.register(
          options.redis ? { publisher: options.redis.rateLimits, subscriber: options.redis.subscriber, keyPrefix: options.keyPrefix } : null,
        ),
      ],
      providers: [
        { provide: APP_OPTIONS, useValue: options },
        { provide: ENVELOPE_MODE, useValue: options.config.API_ENVELOPE },
        { provide: API_PROFILE, useValue: options.config.API_PROFILE },
        { provide: ERROR_SHAPES, useValue: IR_ERROR_SHAPES },
        { provide: APP_FILTER, useClass: ApiExceptionFilter },
        { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor },
        { provide: APP_INTERCEPTOR, useExisting: WriteBarrierInterceptor },
        { provide: APP_PIPE, useClass: ApiValidationPipe },
        {
          provide: RateLimitService,
          useFactory: (config: AppConfig) => new RateLimitService(config, options.redis?.rateLimits ?? null, `${options.keyPrefix}:rl`),
          inject: [AppConfig],
        },
        // First: a @PrimaryRead route's reads, the guards' own included, go to the primary.
        { provide: APP_GUARD, useClass: PrimaryReadGuard },
        { provide: APP_GUARD, useClass: RateLimitGuard },
        { provide: APP_GUARD, useClass: AccessGuard },
        // After AccessGuard (401/403/404 first), before the routes' own guards: a body the route cannot read is a 415.
        { provide: APP_GUARD, useClass: BodyTypeGuard },
        AuthResolver,
        AuthMiddleware,
        ReadRoutingMiddleware,
        ReadCacheMiddleware,
        {
          provide: SESSION_SETUP,
          useFactory: (config: AppConfig, secrets: AppSecretsRepository, sessions: LoginSessionsRepository, scheduler: SchedulerRegistry) =>
            createSessionHandler(config, { secrets, sessions }, options.redis, options.keyPrefix, scheduler),
          inject: [AppConfig, AppSecretsRepository, LoginSessionsRepository, SchedulerRegistry],
        },
      ],
    };
  }

  configure(consumer: MiddlewareConsumer) {
    const limit = this.options.config.BODY_LIMIT_BYTES;
    // Score hooks post whole score documents (direct-manual's batch-manual, profile dumps): they get the import size limit.
    consumer
      .apply(throughNest(jsonBodyParser({ limit: this.options.config.IMPORT_FILE_LIMIT_BYTES, setting: 'IMPORT_FILE_LIMIT_BYTES' })))
      .forRoutes({ path: 'ir/{*path}', method: RequestMethod.POST });
    // One middleware of seven steps (see composeMiddleware), in this order.
    consumer
      .apply(
        composeMiddleware<ApiRequest & CacheableRequest>([
          jsonBodyParser({ limit, setting: 'BODY_LIMIT_BYTES' }),
          formBodyParser({ limit, setting: 'BODY_LIMIT_BYTES' }),
          rejectNulBytes(),
          this.session.handler,
          (req, res, next) => this.auth.use(req, res, next),
          (req, res, next) => this.readRouting.use(req, res, next),
          (req, res, next) => this.readCache.use(req, res, next),
        ]),
      )
      .forRoutes('{*path}');
  }

  async onApplicationShutdown() {
    this.session.close();
    await this.options.onShutdown?.();
  }
}
