import { Injectable } from '@nestjs/common';
import { jubilityBreakdown } from '../../game-support/jubeat/ratings.js';
import { toPbDocument } from '../../presenters/pb.presenter.js';
import { GameSpecificRepository } from '../../repositories/game-specific.repository.js';
import { RelatedDocuments } from '../../repositories/related-documents.js';
import type { JubilityResponse } from '../dto/game-specific.responses.js';

/** jubeat's jubility breakdown: the PBs profile jubility is made of. */
@Injectable()
export class JubilityService {
  constructor(
    private readonly repository: GameSpecificRepository,
    private readonly related: RelatedDocuments,
  ) {}

  /**
   * The user's PBs counted in their jubility (jubeat's JUBILITY_PROFILE), best first: pickUp on
   * PICK UP songs, other on the rest; with their songs and charts. Empty for a user without jubeat PBs.
   */
  async breakdown(userID: number): Promise<JubilityResponse> {
    const rows = await this.repository.primaryPbsWithCatalog(userID, 'jubeat', 'Single');
    const { pickUp, other } = jubilityBreakdown(rows.map((r) => ({ ...r, calculatedData: r.pb.calculatedData })));
    const counted = [...pickUp, ...other].map((r) => r.pb);
    return {
      ...(await this.related.songsAndCharts('jubeat', counted)),
      pickUp: pickUp.map((r) => toPbDocument(r.pb)),
      other: other.map((r) => toPbDocument(r.pb)),
    };
  }
}
