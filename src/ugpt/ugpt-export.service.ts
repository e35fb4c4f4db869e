import { Injectable } from '@nestjs/common';
import type { MatchLookup } from '../game-support/common/match-type.js';
import { MATCH_TYPE_DEFINITIONS } from '../game-support/match-types.js';
import type { GptSupport, MatchType } from '../game-support/types.js';
import { ScoresRepository, type ExportedScoreRow } from '../repositories/scores.repository.js';
import type { UgptContext } from './ugpt.guard.js';

/** Scores read per query while streaming an export. */
const EXPORT_PAGE = 500;

type Match = { matchType: MatchType; identifier: string; difficulty?: string; artist?: string };

/**
 * How a batch-manual element names the score's chart on an instance with the same catalog: a chart
 * hash, else an in-game id, else the song id (stable across instances seeded alike), else the title,
 * each by the first match type of that kind (in the registry's order) the GPT supports.
 * Without meta.version only primary charts match by song or in-game id, so a non-primary chart
 * without a hash has no match (null).
 */
export function exportMatch(gpt: GptSupport, row: Pick<ExportedScoreRow, 'chart' | 'song'>): Match | null {
  const { chart, song } = row;
  const supported = (kind: MatchLookup['kind']): MatchType | undefined =>
    MATCH_TYPE_DEFINITIONS.find((m) => m.lookup.kind === kind && gpt.supportedMatchTypes.includes(m.name))?.name;
  const hashType = supported('chartHash');
  if (hashType && chart.chartHashes.length) return { matchType: hashType, identifier: chart.chartHashes[0] };
  if (!chart.isPrimary) return null;
  const inGameType = supported('chartInGameID');
  if (inGameType && chart.inGameIDs.length) return { matchType: inGameType, identifier: String(chart.inGameIDs[0]), difficulty: chart.difficulty };
  const songIDType = supported('songID');
  if (songIDType) return { matchType: songIDType, identifier: String(song.id), difficulty: chart.difficulty };
  const titleType = supported('songTitle');
  if (titleType) return { matchType: titleType, identifier: song.title, artist: song.artist, difficulty: chart.difficulty };
  return null;
}

/** A UGPT's scores as a batch-manual document (spec part 2) that re-imports to the same scores. */
@Injectable()
export class UgptExportService {
  constructor(private readonly scores: ScoresRepository) {}

  /** The document in chunks, one page of scores at a time; scores whose chart cannot be named are left out. */
  async *batchManual(ugpt: UgptContext): AsyncGenerator<string> {
    const { user, gpt } = ugpt;
    yield `{"meta":${JSON.stringify({ game: gpt.game, playtype: gpt.playtype, service: 'Export' })},"scores":[`;
    let after: string | null = null;
    let first = true;
    for (;;) {
      const page = await this.scores.exportPage(user.id, gpt.game, gpt.playtype, after, EXPORT_PAGE);
      if (page.length === 0) break;
      const elements = page.flatMap((row) => {
        const element = this.element(gpt, row);
        return element ? [JSON.stringify(element)] : [];
      });
      if (elements.length) {
        yield `${first ? '' : ','}${elements.join(',')}`;
        first = false;
      }
      after = page[page.length - 1].score.scoreID;
      if (page.length < EXPORT_PAGE) break;
    }
    yield ']}';
  }

  private element(gpt: GptSupport, row: ExportedScoreRow): Record<string, unknown> | null {
    const match = exportMatch(gpt, row);
    if (!match) return null;
    const { score } = row;
    const data = score.scoreData;
    return {
      score: data.score,
      lamp: data.lamp,
      ...(gpt.percentInput === 'required' ? { percent: data.percent } : {}),
      judgements: data.judgements,
      optional: data.optional,
      scoreMeta: score.scoreMeta,
      timeAchieved: score.timeAchieved,
      comment: score.comment,
      ...match,
    };
  }
}
