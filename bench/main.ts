import 'reflect-metadata';
import { crowdImportBench } from './crowd-import.bench.js';
import { fromApiBench } from './from-api.bench.js';
import { hooksBench } from './hooks.bench.js';
import { importBench } from './import.bench.js';
import { readsBench } from './reads.bench.js';
import { recalcBench } from './recalc.bench.js';
import { replicasBench } from './replicas.bench.js';
import { seedsBench } from './seeds.bench.js';
import { targetsBench } from './targets.bench.js';

const SUITES: Record<string, () => Promise<string>> = {
  seeds: seedsBench,
  import: importBench,
  reads: readsBench,
  hooks: hooksBench,
  recalc: recalcBench,
  targets: targetsBench,
  'crowd-import': crowdImportBench,
  replicas: replicasBench,
  'from-api': fromApiBench,
};

/** `npm run bench [-- suite ...]`: runs the named suites (all by default) and prints Markdown tables for BENCHMARKS.md. */
const names = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const unknown = names.filter((n) => !SUITES[n]);
if (unknown.length) {
  console.error(`Unknown benchmark suite ${unknown.join(', ')}. Suites: ${Object.keys(SUITES).join(', ')}.`);
  process.exit(2);
}
for (const name of names.length ? names : Object.keys(SUITES)) {
  console.error(`Running ${name}…`);
  console.log(`\n### ${name}\n\n${await SUITES[name]()}\n`);
}
process.exit(0);
