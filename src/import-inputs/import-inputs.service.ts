import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { ImportInputsRepository } from '../repositories/import-inputs.repository.js';
import { ImportsRepository } from '../repositories/imports.repository.js';

const DAY_MS = 24 * 3600 * 1000;
/** How many inputs one delete of the retention sweep removes. */
export const RETENTION_BATCH = 500;

export type FoundInput = { kind: 'input'; input: string } | { kind: 'missing'; message: string };

/** Completed imports' inputs: who may read one, how long they are kept (IMPORT_INPUT_RETENTION_DAYS). */
@Injectable()
export class ImportInputsService {
  constructor(
    private readonly inputs: ImportInputsRepository,
    private readonly imports: ImportsRepository,
    private readonly config: AppConfig,
  ) {}

  private get retentionMs(): number {
    return this.config.IMPORT_INPUT_RETENTION_DAYS * DAY_MS;
  }

  /** The input of an import the viewer owns (or any, for an admin); otherwise why not, the same for unknown and not-yours. */
  async find(importID: string, viewerID: number | null, admin: boolean, now = Date.now()): Promise<FoundInput> {
    const notFound: FoundInput = { kind: 'missing', message: `No import input ${importID} was found.` };
    if (viewerID === null) return notFound;
    const row = await this.imports.findById(importID);
    if (!row || (row.userID !== viewerID && !admin)) return notFound;
    const days = this.config.IMPORT_INPUT_RETENTION_DAYS;
    if (days === 0) return { kind: 'missing', message: 'This server keeps no import inputs (IMPORT_INPUT_RETENTION_DAYS is 0).' };
    const kept = await this.inputs.find(importID);
    if (kept && kept.storedAt >= now - this.retentionMs) return { kind: 'input', input: kept.input };
    if (row.status !== 'completed') return { kind: 'missing', message: `The import ${importID} is ${row.status}: only a completed import's input is kept.` };
    return { kind: 'missing', message: `Import inputs are kept ${days} days; the input of ${importID} is no longer kept.` };
  }

  /** Deletes the inputs older than the retention (all of them with 0), in batches; returns how many went. */
  async deleteExpired(now = Date.now()): Promise<number> {
    const before = this.config.IMPORT_INPUT_RETENTION_DAYS === 0 ? Number.MAX_SAFE_INTEGER : now - this.retentionMs;
    let total = 0;
    for (;;) {
      const deleted = await this.inputs.deleteStoredBefore(before, RETENTION_BATCH);
      total += deleted;
      if (deleted < RETENTION_BATCH) return total;
    }
  }
}
