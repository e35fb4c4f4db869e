import { Injectable } from '@nestjs/common';
import { and, count, eq, gte, sql } from 'drizzle-orm';
import { Database } from '../database/database.js';
import { folderCharts, personalBests, scores } from '../database/schema.js';

/** A PB property a showcase stat reads: grade and lamp by their index in the GPT's lists. */
export type PbProperty = 'score' | 'percent' | 'grade' | 'lamp';

const PB_COLUMNS = {
  score: personalBests.score,
  percent: personalBests.percent,
  grade: personalBests.gradeIndex,
  lamp: personalBests.lampIndex,
} as const;

/** The reads behind showcase stats (spec StatDocument): one user's PBs and plays. */
@Injectable()
export class ShowcaseRepository {
  constructor(private readonly database: Database) {}

  /** How many scores the user has on the chart. */
  async playcount(userID: number, chartID: string): Promise<number> {
    const [row] = await this.database.db
      .select({ n: count() })
      .from(scores)
      .where(and(eq(scores.chartID, chartID), eq(scores.userID, userID)));
    return row.n;
  }

  /** The property of the user's PB on the chart; null without a PB. */
  async pbValue(userID: number, chartID: string, property: PbProperty): Promise<number | null> {
    const [pb] = await this.database.db
      .select({ value: PB_COLUMNS[property] })
      .from(personalBests)
      .where(and(eq(personalBests.userID, userID), eq(personalBests.chartID, chartID)));
    return pb ? pb.value : null;
  }

  /** Of the folder's charts (outOf), how many the user has a PB on whose property reaches gte (value). */
  async folderReached(userID: number, folderID: string, property: PbProperty, min: number): Promise<{ value: number; outOf: number }> {
    const [row] = await this.database.db
      .select({
        value: sql<number>`count(${personalBests.chartID})`.mapWith(Number),
        outOf: count(),
      })
      .from(folderCharts)
      .leftJoin(personalBests, and(eq(personalBests.chartID, folderCharts.chartID), eq(personalBests.userID, userID), gte(PB_COLUMNS[property], min)))
      .where(eq(folderCharts.folderID, folderID));
    return row;
  }
}
