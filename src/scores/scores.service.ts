import { BadRequestException, ConflictException, ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import { and, eq, getTableColumns } from 'drizzle-orm';
import { toChartDocument, toSongDocument } from '../presenters/catalog.presenter.js';
import { isAdmin, type AuthContext, type UserRow } from '../http/auth/auth-context.js';
import { randomHex } from '../common/crypto.js';
import { Database } from '../database/database.js';
import { charts, scores, songs } from '../database/schema.js';
import { findGpt } from '../game-support/registry.js';
import { UserBusyError, withUserLock } from '../scoring/import-lock.js';
import type { ScoreWithRelatedResponse } from './dto/score.responses.js';
import type { PatchScoreDto } from './dto/scores.dto.js';
import { loadChartContexts, recomputePersonalBests } from '../scoring/personal-bests.writer.js';
import { removeScores } from '../scoring/score-removal.js';
import { toScoreDocument, type ScoreDocument, type ScoreRecord } from '../presenters/score.presenter.js';

@Injectable()
export class ScoresService {
  constructor(private readonly database: Database) {}

  async findOrThrow(scoreID: string): Promise<ScoreRecord> {
    const [row] = await this.database.db.select().from(scores).where(eq(scores.scoreID, scoreID)).limit(1);
    if (!row) throw new NotFoundException(`The score ${scoreID} does not exist.`);
    return row;
  }

  /** {score}, plus its song and chart with getRelated. */
  async get(scoreID: string, getRelated: boolean): Promise<ScoreWithRelatedResponse> {
    const score = await this.findOrThrow(scoreID);
    if (!getRelated) return { score: toScoreDocument(score) };
    const [related] = await this.database.db
      .select({ chart: getTableColumns(charts), song: getTableColumns(songs) })
      .from(charts)
      .innerJoin(songs, and(eq(songs.game, charts.game), eq(songs.id, charts.songID)))
      .where(eq(charts.chartID, score.chartID))
      .limit(1);
    return { score: toScoreDocument(score), song: related ? toSongDocument(related.song) : null, chart: related ? toChartDocument(related.chart) : null };
  }

  /**
   * Sets the comment and/or the highlight of the requester's own score. A highlight change
   * recomputes the PB of that chart, whose `highlighted` follows the scores it is composed from.
   */
  async patch(user: UserRow, scoreID: string, dto: PatchScoreDto): Promise<ScoreDocument> {
    if (dto.comment === undefined && dto.highlight === undefined)
      throw new BadRequestException('Nothing was provided to modify: give comment and/or highlight.');
    const score = await this.findOrThrow(scoreID);
    if (score.userID !== user.id) throw new ForbiddenException('You can only modify your own scores.');
    return this.database.transaction(async (tx) => {
      const [updated] = await tx
        .update(scores)
        .set({ ...(dto.comment !== undefined ? { comment: dto.comment } : {}), ...(dto.highlight !== undefined ? { highlighted: dto.highlight } : {}) })
        .where(eq(scores.scoreID, scoreID))
        .returning();
      if (!updated) throw new NotFoundException(`The score ${scoreID} does not exist.`);
      const gpt = findGpt(updated.game, updated.playtype);
      if (dto.highlight !== undefined && gpt) await recomputePersonalBests(tx, updated.userID, gpt, await loadChartContexts(tx, [updated.chartID]));
      return toScoreDocument(updated);
    });
  }

  /**
   * Deletes a score (its owner, or an administrator) and repairs what derives from it: PB and
   * chart ranks, session, the import's scoreIDs, profile ratings and derived classes. Holds the
   * owner's import lock, so it never interleaves with one of their imports (409 while one runs).
   */
  async delete(auth: AuthContext, scoreID: string): Promise<void> {
    const score = await this.findOrThrow(scoreID);
    if (score.userID !== auth.user?.id && !isAdmin(auth)) throw new ForbiddenException('You can only delete your own scores.');
    try {
      await withUserLock(this.database, score.userID, `delete:${randomHex(8)}`, () =>
        this.database.transaction(async (tx) => {
          const [current] = await tx.select().from(scores).where(eq(scores.scoreID, scoreID)).for('update');
          if (!current) throw new NotFoundException(`The score ${scoreID} does not exist.`);
          await removeScores(tx, current.userID, [current], { keepClasses: false });
        }),
      );
    } catch (err) {
      if (err instanceof UserBusyError) throw new ConflictException('This user has an import in progress; delete the score once it has finished.');
      throw err;
    }
  }
}
