import { Module } from '@nestjs/common';
import { CatalogCache } from './catalog-cache.js';
import { CatalogRepository } from './catalog.repository.js';
import { EmailCodesRepository } from './email-codes.repository.js';
import { GameStatsRepository } from './game-stats.repository.js';
import { GptLeaderboardsRepository } from './gpt-leaderboards.repository.js';
import { InvitesRepository } from './invites.repository.js';
import { RelatedDocuments } from './related-documents.js';
import { UgptProfileRepository } from './ugpt-profile.repository.js';
import { UsersRepository } from './users.repository.js';

const REPOSITORIES = [
  CatalogCache,
  CatalogRepository,
  EmailCodesRepository,
  GameStatsRepository,
  GptLeaderboardsRepository,
  InvitesRepository,
  RelatedDocuments,
  UgptProfileRepository,
  UsersRepository,
];

/**
 * Every query outside the scoring core's set-based writers, one repository per aggregate or read
 * view. Feature modules import this module; each repository (and the catalog cache) exists once.
 */
@Module({ providers: REPOSITORIES, exports: REPOSITORIES })
export class RepositoriesModule {}
