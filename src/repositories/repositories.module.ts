import { Module } from '@nestjs/common';
import { AccountsRepository } from './accounts.repository.js';
import { AdminAuditRepository } from './admin-audit.repository.js';
import { ApiKeysRepository } from './api-keys.repository.js';
import { AppSecretsRepository } from './app-secrets.repository.js';
import { CatalogCache } from './catalog-cache.js';
import { CatalogRepository } from './catalog.repository.js';
import { ChartMatchRepository } from './chart-match.repository.js';
import { ChartRecordsRepository } from './chart-records.repository.js';
import { ClientsRepository } from './clients.repository.js';
import { EmailCodesRepository } from './email-codes.repository.js';
import { GameSpecificRepository } from './game-specific.repository.js';
import { GameStatsRepository } from './game-stats.repository.js';
import { GptLeaderboardsRepository } from './gpt-leaderboards.repository.js';
import { ImportsRepository } from './imports.repository.js';
import { ImportInputsRepository } from './import-inputs.repository.js';
import { IntegrationCredentialsRepository } from './integration-credentials.repository.js';
import { IntegrationSettingsRepository } from './integration-settings.repository.js';
import { InvitesRepository } from './invites.repository.js';
import { UserSettingsRepository } from './user-settings.repository.js';
import { LoginSessionsRepository } from './login-sessions.repository.js';
import { NotificationsRepository } from './notifications.repository.js';
import { OAuthCodesRepository } from './oauth-codes.repository.js';
import { OrphanChartsRepository } from './orphan-charts.repository.js';
import { OrphansRepository } from './orphans.repository.js';
import { RelatedDocuments } from './related-documents.js';
import { ScoresRepository } from './scores.repository.js';
import { SessionsRepository } from './sessions.repository.js';
import { ShowcaseRepository } from './showcase.repository.js';
import { SnapshotsRepository } from './snapshots.repository.js';
import { SocialRepository } from './social.repository.js';
import { TargetsRepository } from './targets.repository.js';
import { UgptFoldersRepository } from './ugpt-folders.repository.js';
import { UgptProfileRepository } from './ugpt-profile.repository.js';
import { UgptSessionsRepository } from './ugpt-sessions.repository.js';
import { SiteSearchRepository } from './site-search.repository.js';
import { UgptSettingsRepository } from './ugpt-settings.repository.js';
import { UsersRepository } from './users.repository.js';
import { WebhooksRepository } from './webhooks.repository.js';

const REPOSITORIES = [
  AccountsRepository,
  AdminAuditRepository,
  ApiKeysRepository,
  AppSecretsRepository,
  CatalogCache,
  CatalogRepository,
  ChartMatchRepository,
  ChartRecordsRepository,
  ClientsRepository,
  EmailCodesRepository,
  GameSpecificRepository,
  GameStatsRepository,
  GptLeaderboardsRepository,
  ImportsRepository,
  ImportInputsRepository,
  IntegrationCredentialsRepository,
  IntegrationSettingsRepository,
  InvitesRepository,
  UserSettingsRepository,
  LoginSessionsRepository,
  NotificationsRepository,
  OAuthCodesRepository,
  OrphanChartsRepository,
  OrphansRepository,
  RelatedDocuments,
  ScoresRepository,
  SessionsRepository,
  ShowcaseRepository,
  SiteSearchRepository,
  SnapshotsRepository,
  SocialRepository,
  TargetsRepository,
  UgptFoldersRepository,
  UgptProfileRepository,
  UgptSessionsRepository,
  UgptSettingsRepository,
  UsersRepository,
  WebhooksRepository,
];

/**
 * Every query outside the scoring core's set-based writers, one repository per aggregate or read
 * view. Feature modules import this module; each repository (and the catalog cache) exists once.
 */
@Module({ providers: REPOSITORIES, exports: REPOSITORIES })
export class RepositoriesModule {}
