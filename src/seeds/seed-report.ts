export interface SeedIssue {
  file: string;
  /** Position of the record in the file's array; null for a problem with the whole file. */
  index: number | null;
  message: string;
}

export interface CollectionSummary {
  file: string;
  records: number;
  inserted: number;
  updated: number;
  unchanged: number;
  rejected: number;
}

export interface SeedReport {
  source: string;
  games: string[];
  collections: CollectionSummary[];
  /** Records that were not loaded, with why. */
  rejected: SeedIssue[];
  /** Loaded, but worth knowing (e.g. an id that does not match its hash rule). */
  warnings: SeedIssue[];
  missingFiles: string[];
  /** GPTs whose folders were re-resolved, and the links written. */
  resolvedGpts: string[];
  folderLinks: number;
  changed: boolean;
}

/** What a load found, for its report: its issues, and the GPTs and links of its folder re-resolution. */
export interface SeedOutcome {
  issues: { rejected: readonly SeedIssue[]; warnings: readonly SeedIssue[]; missingFiles: readonly string[] };
  collections: CollectionSummary[];
  /** The GPTs whose folders were re-resolved ("game:playtype"); none when nothing was written. */
  resolvedGpts: readonly string[];
  folderLinks: number;
  changed: boolean;
}

/** The report of a load. */
export function seedReport(source: string, games: readonly string[], outcome: SeedOutcome): SeedReport {
  return {
    source,
    games: [...games],
    collections: outcome.collections,
    rejected: [...outcome.issues.rejected],
    warnings: [...outcome.issues.warnings],
    missingFiles: [...outcome.issues.missingFiles],
    resolvedGpts: outcome.changed ? [...outcome.resolvedGpts] : [],
    folderLinks: outcome.folderLinks,
    changed: outcome.changed,
  };
}

/** The report as lines for a terminal or a log. */
export function formatSeedReport(report: SeedReport, maxIssues = 50): string[] {
  const lines = [`Seeds from ${report.source} for ${report.games.join(', ')}:`];
  for (const c of report.collections) {
    if (c.records === 0) continue;
    lines.push(
      `  ${c.file.padEnd(28)} ${String(c.records).padStart(6)} records: ${c.inserted} new, ${c.updated} updated, ${c.unchanged} unchanged, ${c.rejected} rejected`,
    );
  }
  if (report.missingFiles.length) lines.push(`  Not in the source (skipped): ${report.missingFiles.join(', ')}`);
  if (report.changed) lines.push(`  Folders re-resolved for ${report.resolvedGpts.length} GPT(s): ${report.folderLinks} folder→chart links.`);
  else lines.push('  No changes: the database already matches these seeds.');
  const section = (title: string, issues: SeedReport['rejected']) => {
    if (!issues.length) return;
    lines.push(`${title} (${issues.length}):`);
    for (const i of issues.slice(0, maxIssues)) lines.push(`  ${i.file}${i.index === null ? '' : `[${i.index}]`}: ${i.message}`);
    if (issues.length > maxIssues) lines.push(`  … and ${issues.length - maxIssues} more`);
  };
  section('Rejected records', report.rejected);
  section('Warnings', report.warnings);
  return lines;
}
