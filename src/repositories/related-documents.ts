import { Injectable } from '@nestjs/common';
import { CatalogCache } from './catalog-cache.js';
import { distinct } from '../common/collections.js';
import { toUserDocument } from '../presenters/user.presenter.js';
import { UsersRepository } from './users.repository.js';

/** Rows in the order of `ids`, skipping ids without a row. */
function inOrder<K, R>(ids: readonly K[], rows: readonly R[], key: (r: R) => K): R[] {
  const byKey = new Map(rows.map((r) => [key(r), r]));
  return ids.flatMap((id) => (byKey.has(id) ? [byKey.get(id)!] : []));
}

/**
 * The songs, charts and users a list of scores, PBs or profiles refers to, each once, in the
 * order the list first names them.
 */
@Injectable()
export class RelatedDocuments {
  constructor(
    private readonly usersRepository: UsersRepository,
    private readonly catalog: CatalogCache,
  ) {}

  async users(ids: Iterable<number>) {
    const wanted = distinct(ids);
    if (wanted.length === 0) return [];
    const rows = await this.usersRepository.findByIds(wanted);
    return inOrder(wanted, rows, (u) => u.id).map(toUserDocument);
  }

  songs(game: string, ids: Iterable<number>) {
    return this.catalog.songDocuments(game, ids);
  }

  charts(ids: Iterable<string>) {
    return this.catalog.chartDocuments(ids);
  }

  /** {songs, charts} of scores or PBs of one game. */
  async songsAndCharts(game: string, items: readonly { songID: number; chartID: string }[]) {
    const [songDocs, chartDocs] = await Promise.all([
      this.songs(
        game,
        items.map((i) => i.songID),
      ),
      this.charts(items.map((i) => i.chartID)),
    ]);
    return { songs: songDocs, charts: chartDocs };
  }
}
