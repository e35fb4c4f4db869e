import { Module } from '@nestjs/common';
import { CatalogCache } from './catalog-cache.js';
import { CatalogRepository } from './catalog.repository.js';
import { ChartMatchRepository } from './chart-match.repository.js';
import { EmailCodesRepository } from './email-codes.repository.js';
import { GameStatsRepository } from './game-stats.repository.js';
import { GptLeaderboardsRepository } from './gpt-leaderboards.repository.js';
import { ImportsRepository } from './imports.repository.js';
import { OrphansRepository } from './orphans.repository.js';
import { RelatedDocuments } from './related-documents.js';
import { ScoresRepository } from './scores.repository.js';
import { SessionsRepository } from './sessions.repository.js';
import { UgptProfileRepository } from './ugpt-profile.repository.js';
import { UsersRepository } from './users.repository.js';

const REPOSITORIES = [
  CatalogCache,
  CatalogRepository,
  EmailCodesRepository,
  GameStatsRepository,
  GptLeaderboardsRepository,
  RelatedDocuments,
  UgptProfileRepository,
  UsersRepository,
  ChartMatchRepository,
  ImportsRepository,
  OrphansRepository,
  ScoresRepository,
  SessionsRepository,
];

/**
 * Every query outside the scoring core's set-based writers, one repository per aggregate or read
 * view. Feature modules import this module; each repository (and the catalog cache) exists once.
 */
@Module({ providers: REPOSITORIES, exports: REPOSITORIES })
export class RepositoriesModule {}
