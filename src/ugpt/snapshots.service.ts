import { Injectable } from '@nestjs/common';
import { allGpts } from '../game-support/registry.js';
import { SnapshotsRepository } from '../repositories/snapshots.repository.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The UTC midnight that starts the day of `time`. */
export function utcMidnight(time: number): number {
  return Math.floor(time / DAY_MS) * DAY_MS;
}

export interface SnapshotResult {
  /** The UTC midnight the snapshot stands for. */
  timestamp: number;
  /** False when another instance held the lock: it is taking this snapshot. */
  taken: boolean;
  /** Rows written: every profile that had none for that day yet. */
  written: number;
}

/**
 * Daily UserGameStatsSnapshots: every profile's classes, ratings, playcount and rankings under
 * every profile rating algorithm of the registry's GPTs, by the live ranking rule
 * (database/ranking.ts); `ranking` is the default algorithm's.
 */
@Injectable()
export class SnapshotsService {
  constructor(private readonly snapshots: SnapshotsRepository) {}

  /**
   * Takes the snapshot of the day of `at` (its UTC midnight). Idempotent: profiles that already
   * have that day's snapshot keep it. Only one instance at a time takes it: the others skip.
   */
  async take(at: number = Date.now()): Promise<SnapshotResult> {
    const timestamp = utcMidnight(at);
    const algs = allGpts().flatMap((g) =>
      Object.keys(g.profileRatingAlgs).map((alg) => ({ game: g.game, playtype: g.playtype, alg, is_default: alg === g.defaultProfileRatingAlg })),
    );
    const written = await this.snapshots.insertDaily(timestamp, algs);
    return written === null ? { timestamp, taken: false, written: 0 } : { timestamp, taken: true, written };
  }

  /** Whether any profile has the snapshot of the day of `at`. */
  exists(at: number = Date.now()): Promise<boolean> {
    return this.snapshots.exists(utcMidnight(at));
  }
}
