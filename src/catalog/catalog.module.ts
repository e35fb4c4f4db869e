import { Module } from '@nestjs/common';
import { CatalogCache } from './catalog-cache.js';
import { CatalogRepository } from './catalog.repository.js';
import { CatalogService } from './catalog.service.js';
import { GptCatalogController } from './gpt-catalog.controller.js';

@Module({ controllers: [GptCatalogController], providers: [CatalogRepository, CatalogService, CatalogCache], exports: [CatalogRepository, CatalogCache] })
export class CatalogModule {}
