import { Injectable } from '@nestjs/common';
import { matchTypeAllowedFor, MATCH_TYPE_DEFINITIONS } from '../game-support/match-types.js';
import { allGpts, GAMES } from '../game-support/registry.js';
import { toChartHashSearchDocument, toSiteSearchDocument, type ChartHashSearchDocument, type SiteSearchDocument } from '../presenters/search.presenter.js';
import { GameStatsRepository } from '../repositories/game-stats.repository.js';
import { SiteSearchRepository } from '../repositories/site-search.repository.js';
import { SocialRepository } from '../repositories/social.repository.js';

/** As Tachi: a search finds 25 users. */
export const SEARCH_USER_LIMIT = 25;
/** Songs searched per game (Tachi's site search takes 10 per game); their charts in the searched GPTs all come. */
export const SEARCH_SONGS_PER_GAME = 10;
/** Folders a search finds (Tachi: 500; 100 here, as a GPT's folder search). */
export const SEARCH_FOLDER_LIMIT = 100;

const gptKey = (g: { game: string; playtype: string }) => `${g.game}:${g.playtype}`;

/** Site-wide search: users, songs and charts of every game, folders; and charts by hash. Public. */
@Injectable()
export class SearchService {
  constructor(
    private readonly repository: SiteSearchRepository,
    private readonly gameStats: GameStatsRepository,
    private readonly social: SocialRepository,
  ) {}

  /**
   * Users whose name contains the text, and the songs (with their charts) and folders matching it in every GPT, or,
   * with `onlyPlayed` and a signed-in requester, in the GPTs they have played. `__isRival`: the requester has the user
   * as a rival on any game and playtype (false for guests).
   */
  async search(requesterID: number | null, search: string, onlyPlayed: boolean): Promise<SiteSearchDocument> {
    const gpts =
      requesterID !== null && onlyPlayed ? (await this.gameStats.listForUser(requesterID)).map((s) => ({ game: s.game, playtype: s.playtype })) : allGpts();
    const playtypesByGame = new Map<string, string[]>();
    for (const g of gpts) playtypesByGame.set(g.game, [...(playtypesByGame.get(g.game) ?? []), g.playtype]);
    const [users, hits, folders, rivalIDs] = await Promise.all([
      this.repository.users(search, SEARCH_USER_LIMIT),
      Promise.all([...playtypesByGame].map(([game, playtypes]) => this.repository.chartsOfMatchingSongs(game, playtypes, search, SEARCH_SONGS_PER_GAME))),
      this.repository.folders(requesterID !== null && onlyPlayed ? gpts : null, search, SEARCH_FOLDER_LIMIT),
      requesterID === null ? Promise.resolve<number[]>([]) : this.social.allRivalIDs(requesterID),
    ]);
    return toSiteSearchDocument({
      users: users.map((user) => ({ user, isRival: rivalIDs.includes(user.id) })),
      gpts: gpts.map(gptKey),
      hits: hits.flat(),
      folders,
    });
  }

  /**
   * The charts holding the hash, in every game a chart-hash match type serves whose identifier pattern the text fits
   * (BMS and PMS: MD5 or SHA256; USC: SHA1; ITG, IIDX: their own). Tachi's answer names each of those games' GPTs.
   */
  async chartHash(search: string): Promise<ChartHashSearchDocument> {
    const hashTypes = MATCH_TYPE_DEFINITIONS.filter((m) => m.lookup.kind === 'chartHash');
    const gamesOf = (fits: boolean) =>
      GAMES.filter((g) =>
        hashTypes.some((m) => matchTypeAllowedFor(m, g.game) && m.games !== 'any' && (!fits || !m.identifier.pattern || m.identifier.pattern.test(search))),
      ).map((g) => g.game);
    const searchable = gamesOf(true);
    const named = new Set(gamesOf(false));
    const hits = await this.repository.chartsByHash(searchable, search);
    return toChartHashSearchDocument({
      gpts: allGpts()
        .filter((g) => named.has(g.game))
        .map(gptKey),
      hits: hits.map((h) => ({ ...h, playcount: null })),
    });
  }
}
