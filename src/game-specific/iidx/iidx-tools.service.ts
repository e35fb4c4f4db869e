import { Injectable, NotFoundException } from '@nestjs/common';
import type { GptSupport } from '../../game-support/types.js';
import { GameSpecificRepository } from '../../repositories/game-specific.repository.js';
import { toEamusementCsv, type EamusementCsvDocument } from '../../presenters/game-specific.presenter.js';
import { eamusementCsv } from './eamusement-csv.js';
import { PLAYLIST_SETS, USER_PLAYLIST_SETS, type IidxPlaylist } from './playlists.js';
import type { PlaylistSetDocument } from '../dto/game-specific.responses.js';

/** IIDX's own tools: the e-amusement CSV export and the playlists. */
@Injectable()
export class IidxToolsService {
  constructor(private readonly repository: GameSpecificRepository) {}

  /** The user's PBs on primary charts of the GPT as an e-amusement CSV (see eamusementCsv); only the header for a user without any. */
  async eamusementCsv(userID: number, gpt: GptSupport): Promise<EamusementCsvDocument> {
    const pbs = await this.repository.primaryPbsWithCatalog(userID, gpt.game, gpt.playtype);
    const songIDs = [...new Set(pbs.map((r) => r.song.id))];
    const charts = (await this.repository.chartsOfSongs(gpt.game, songIDs)).filter((c) => c.playtype === gpt.playtype && c.isPrimary);
    const songs = songIDs.map((id) => ({
      song: pbs.find((r) => r.song.id === id)!.song,
      charts: charts.filter((c) => c.songID === id),
      pbs: pbs.filter((r) => r.song.id === id).map((r) => r.pb),
    }));
    return toEamusementCsv(eamusementCsv(songs));
  }

  /** The playlist sets this server offers (the same for every user). */
  playlistSets(): PlaylistSetDocument[] {
    return PLAYLIST_SETS.map((p) => ({ urlName: p.urlName, playlistName: p.playlistName, description: p.description, playtype: null, forSpecificUser: false }));
  }

  /** One playlist set's playlists for the GPT, built from its charts' data now; 404 for an unknown set. */
  async playlists(gpt: GptSupport, urlName: string): Promise<IidxPlaylist[]> {
    const set = PLAYLIST_SETS.find((p) => p.urlName === urlName);
    if (!set)
      throw new NotFoundException(`No such playlist '${urlName}' exists for '${gpt.playtype}'. Playlists: ${PLAYLIST_SETS.map((p) => p.urlName).join(', ')}.`);
    return set.build(gpt, await this.repository.chartsWithNumericData(gpt.game, gpt.playtype, set.needs));
  }

  /**
   * One per-player playlist set's playlists for the GPT, from the charts' data and the player's PBs now; 404 for an
   * unknown set, and for a site-wide one (served under /games/iidx/:playtype/playlists), as Tachi answers.
   */
  async userPlaylists(userID: number, gpt: GptSupport, urlName: string): Promise<IidxPlaylist[]> {
    const set = USER_PLAYLIST_SETS.find((p) => p.urlName === urlName);
    if (!set) {
      if (PLAYLIST_SETS.some((p) => p.urlName === urlName))
        throw new NotFoundException(
          `The playlist '${urlName}' is not for a specific user: fetch it from /api/v1/games/iidx/${gpt.playtype}/playlists/${urlName}.`,
        );
      throw new NotFoundException(
        `No such playlist '${urlName}' exists for '${gpt.playtype}'. Per-user playlists: ${USER_PLAYLIST_SETS.map((p) => p.urlName).join(', ')}.`,
      );
    }
    const pbs = await this.repository.primaryPbsWithCatalog(userID, gpt.game, gpt.playtype);
    const pbScores = new Map(pbs.map((r) => [r.chart.chartID, r.pb.scoreData.score]));
    return set.build(gpt, await this.repository.chartsWithNumericData(gpt.game, gpt.playtype, set.needs), pbScores);
  }
}
