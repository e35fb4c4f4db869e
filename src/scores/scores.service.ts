import { BadRequestException, ConflictException, ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import { toChartDocument, toSongDocument } from '../presenters/catalog.presenter.js';
import { isAdmin, type AuthContext, type UserRow } from '../http/auth/auth-context.js';
import { CatalogRepository } from '../repositories/catalog.repository.js';
import { ScoresRepository } from '../repositories/scores.repository.js';
import { UserBusyError } from '../scoring/import-lock.js';
import { ScoreEditService } from '../scoring/score-edit.service.js';
import { ScoreRemovalService } from '../scoring/removal/score-removal.service.js';
import type { PatchScoreDto } from './dto/scores.dto.js';
import { toScoreDocument, type ScoreDocument } from '../presenters/score.presenter.js';
import type { ScoreWithRelatedResponse } from './dto/score.responses.js';
import type { ScoreRow } from '../database/schema.js';

@Injectable()
export class ScoresService {
  constructor(
    private readonly scores: ScoresRepository,
    private readonly catalog: CatalogRepository,
    private readonly edits: ScoreEditService,
    private readonly removal: ScoreRemovalService,
  ) {}

  async findOrThrow(scoreID: string): Promise<ScoreRow> {
    const row = await this.scores.findById(scoreID);
    if (!row) throw new NotFoundException(`The score ${scoreID} does not exist.`);
    return row;
  }

  /** {score}, plus its song and chart with getRelated. */
  async get(scoreID: string, getRelated: boolean): Promise<ScoreWithRelatedResponse> {
    const score = await this.findOrThrow(scoreID);
    if (!getRelated) return { score: toScoreDocument(score) };
    const related = await this.catalog.chartWithSong(score.chartID);
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
    const updated = await this.edits.annotate(scoreID, {
      ...(dto.comment !== undefined ? { comment: dto.comment } : {}),
      ...(dto.highlight !== undefined ? { highlighted: dto.highlight } : {}),
    });
    if (!updated) throw new NotFoundException(`The score ${scoreID} does not exist.`);
    return toScoreDocument(updated);
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
      if (!(await this.removal.deleteScore(score.userID, scoreID))) throw new NotFoundException(`The score ${scoreID} does not exist.`);
    } catch (err) {
      if (err instanceof UserBusyError) throw new ConflictException('This user has an import in progress; delete the score once it has finished.');
      throw err;
    }
  }
}
