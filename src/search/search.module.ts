import { Module } from '@nestjs/common';
import { RepositoriesModule } from '../repositories/repositories.module.js';
import { SearchController } from './search.controller.js';
import { SearchService } from './search.service.js';

/** `/search`: the site-wide search and the chart-hash lookup. */
@Module({ imports: [RepositoriesModule], controllers: [SearchController], providers: [SearchService] })
export class SearchModule {}
