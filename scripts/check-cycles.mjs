#!/usr/bin/env node
/**
 * Fails on an import cycle in src/: between files, or between folders. A folder cycle is two
 * sibling folders (anywhere in the tree) that reach each other through imports, directly or round
 * a longer loop: dependencies must point one way (HTTP modules → scoring core → database and
 * game support). Type-only imports count too: a cycle of types is still a tangle.
 * Usage: node scripts/check-cycles.mjs [--graph]   (--graph prints the top-level folder graph)
 */
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const SRC = path.join(ROOT, 'src');

function listFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return listFiles(p);
    return /\.ts$/.test(e.name) && !/\.d\.ts$/.test(e.name) ? [p] : [];
  });
}

const IMPORT =
  /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)|(?:^|[\s;])import\s*['"](\.{1,2}\/[^'"]+)['"]/g;

/** file -> files it imports (relative imports only; packages cannot form a cycle with src/). */
const graph = new Map();
for (const file of listFiles(SRC)) {
  const text = fs
    .readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');
  const targets = new Set();
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2] ?? m[3];
    const base = path.resolve(path.dirname(file), spec).replace(/\.js$/, '');
    const target = [`${base}.ts`, path.join(base, 'index.ts')].find((p) => fs.existsSync(p));
    if (target) targets.add(target);
  }
  graph.set(file, targets);
}

/** Strongly connected components with more than one node (or a self loop), by Tarjan's algorithm. */
function cycles(nodes, edgesOf) {
  let index = 0;
  const idx = new Map(),
    low = new Map(),
    stack = [],
    onStack = new Set(),
    found = [];
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of edgesOf(v)) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const scc = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || edgesOf(v).has(v)) found.push(scc.sort());
    }
  };
  for (const v of nodes) if (!idx.has(v)) visit(v);
  return found;
}

const rel = (p) => path.relative(ROOT, p);
const problems = [];

for (const scc of cycles([...graph.keys()], (f) => graph.get(f) ?? new Set())) problems.push(`file cycle: ${scc.map(rel).join(' ⇄ ')}`);

// Folder edges: for an import from a to b, the first folders in which their paths part are
// siblings under a common parent; the importing side must be inside a folder (not a file of the parent).
const folderEdges = new Map(); // parent -> Map(child -> Set(child)) ; plus an example per edge
const examples = new Map();
for (const [from, targets] of graph) {
  for (const to of targets) {
    const a = path.relative(SRC, from).split(path.sep);
    const b = path.relative(SRC, to).split(path.sep);
    let i = 0;
    while (i < a.length - 1 && i < b.length - 1 && a[i] === b[i]) i++;
    if (i >= a.length - 1 || i >= b.length - 1) continue; // one side is a file directly in the common folder
    const parent = a.slice(0, i).join('/');
    const [x, y] = [a[i], b[i]];
    if (!folderEdges.has(parent)) folderEdges.set(parent, new Map());
    const edges = folderEdges.get(parent);
    if (!edges.has(x)) edges.set(x, new Set());
    edges.get(x).add(y);
    const key = `${parent}|${x}|${y}`;
    if (!examples.has(key)) examples.set(key, `${rel(from)} → ${rel(to)}`);
  }
}
for (const [parent, edges] of folderEdges) {
  for (const scc of cycles([...edges.keys()], (d) => edges.get(d) ?? new Set())) {
    const where = parent ? `src/${parent}/` : 'src/';
    const links = [];
    for (const x of scc) for (const y of edges.get(x) ?? []) if (scc.includes(y)) links.push(`    ${x} → ${y}: ${examples.get(`${parent}|${x}|${y}`)}`);
    problems.push(`folder cycle in ${where}: ${scc.join(' ⇄ ')}\n${links.join('\n')}`);
  }
}

if (process.argv.includes('--graph')) {
  for (const [x, ys] of [...(folderEdges.get('') ?? new Map())].sort()) console.log(`${x} → ${[...ys].sort().join(', ')}`);
}
if (problems.length) {
  console.error(`Import cycles in src/ (${problems.length}):\n${problems.join('\n')}`);
  process.exit(1);
}
console.log(`No import cycles: ${graph.size} files, ${[...folderEdges.values()].reduce((n, e) => n + e.size, 0)} folders with outgoing imports.`);
