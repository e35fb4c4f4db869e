import type { SeedReport } from './seed-loader.js';

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
