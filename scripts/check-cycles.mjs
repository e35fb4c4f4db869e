#!/usr/bin/env node
/**
 * Fails on an import cycle in src/: between files, or between folders. A folder cycle is two
 * sibling folders (anywhere in the tree) that reach each other through imports, directly or round
 * a longer loop: dependencies must point one way (HTTP modules → scoring core → database and
 * game support). Type-only imports count too: a cycle of types is still a tangle.
 * Also fails on an import against the layers below (LAYERS): a file may import its own top-level
 * folder, any lower layer, and another folder of its own layer only where that layer's `within`
 * allows; every top-level folder and file of src/ must be in the table.
 * Usage: node scripts/check-cycles.mjs [--graph] [<src dir>]   (--graph prints the top-level folder
 * graph with each folder's layer; <src dir> defaults to this project's src/, tests pass a fixture)
 */
import fs from 'node:fs';
import path from 'node:path';

/**
 * The layers of src/, highest first (the order README.md's "Where a change goes" states): a file
 * imports downwards only. Each top-level folder (or file) of src/ is in exactly one layer.
 * `within`: which imports between different folders of the same layer are allowed: 'any', or a
 * list of [from, to] folder pairs; none when absent. Imports inside one folder are always allowed
 * (the cycle checks still apply to them, and to every allowed edge).
 */
const LAYERS = [
  // The entry points and what they assemble; they import each other (main.ts → app.module.ts, bootstrap.ts).
  { layer: 'processes', folders: ['main.ts', 'worker.ts', 'cli.ts', 'bootstrap.ts', 'app.module.ts', 'app.factory.ts', 'processes'], within: 'any' },
  // HTTP feature modules (and the CLI socket). They use each other's modules (oauth → auth, clients, api-keys;
  // users and ugpt → auth; users → cdn; targets → ugpt; tachi → imports; ir → imports; imports → seeds, webhooks; home → status; cli-socket → seeds);
  // the folder-cycle check keeps those one-way.
  {
    layer: 'features',
    folders:
      'auth account-settings oauth clients api-keys users notifications status home web-client cdn games search ugpt targets scores sessions imports import-inputs seeds webhooks admin tachi social cli-socket game-specific ir integrations'.split(
        ' ',
      ),
    within: 'any',
  },
  // The HTTP platform and the write core: neither imports the other.
  { layer: 'platform', folders: ['http', 'scoring'] },
  // Outgoing mail, uploaded files and secrets at rest (secrets/ also pages through repositories for its rotation):
  // used by features and the write core, using only config and common; placed
  // as high as that allows, so that repositories, presenters, the database and game rules neither mail nor store files.
  { layer: 'infrastructure', folders: ['mail', 'storage', 'secrets'] },
  { layer: 'repositories', folders: ['repositories'] },
  { layer: 'presenters', folders: ['presenters'] },
  // The schema and Database know the games (database → game-support); game rules are pure and never query.
  { layer: 'data', folders: ['database', 'game-support'], within: [['database', 'game-support']] },
  // Shared leaves: the validated environment (config → common) and pure helpers, which import nothing of src/.
  { layer: 'leaves', folders: ['config', 'common'], within: [['config', 'common']] },
];

/**
 * Imports the layers refuse but the code keeps for now, each with its reason: { from, to, reason },
 * `from` and `to` paths relative to the src dir. Keep it empty where possible.
 */
const LAYER_EXCEPTIONS = [];

const args = process.argv.slice(2);
const SRC = path.resolve(args.find((a) => !a.startsWith('--')) ?? path.join(import.meta.dirname, '..', 'src'));
const ROOT = path.dirname(SRC);

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

// Layers: the top-level folder (or file) of each path, and its place in LAYERS (0 = highest).
const RANK = new Map(LAYERS.flatMap(({ folders }, i) => folders.map((f) => [f, i])));
for (const { layer, folders, within } of LAYERS) {
  for (const f of folders)
    if (LAYERS[RANK.get(f)].layer !== layer) problems.push(`layer table: ${f} is in two layers (${LAYERS[RANK.get(f)].layer}, ${layer})`);
  for (const pair of Array.isArray(within) ? within : []) {
    if (!pair.every((f) => folders.includes(f))) problems.push(`layer table: within ${pair.join(' → ')} names a folder outside the layer ${layer}`);
  }
}
const topOf = (file) => path.relative(SRC, file).split(path.sep)[0];
const unknown = [...new Set([...graph.keys()].map(topOf))].filter((top) => !RANK.has(top)).sort();
for (const top of unknown)
  problems.push(
    `unknown top-level ${top.endsWith('.ts') ? 'file' : 'folder'} ${rel(path.join(SRC, top))}: add it to the layer table (LAYERS in scripts/check-cycles.mjs)`,
  );
const withinAllowed = (i, a, b) => LAYERS[i].within === 'any' || (LAYERS[i].within ?? []).some(([x, y]) => x === a && y === b);
const excepted = (from, to) => LAYER_EXCEPTIONS.some((e) => e.from === path.relative(SRC, from) && e.to === path.relative(SRC, to));
const layerViolations = [];
for (const [from, targets] of graph) {
  const a = topOf(from);
  if (!RANK.has(a)) continue;
  for (const to of targets) {
    const b = topOf(to);
    if (a === b || !RANK.has(b) || excepted(from, to)) continue;
    const [i, j] = [RANK.get(a), RANK.get(b)];
    if (j > i || (i === j && withinAllowed(i, a, b))) continue;
    const why = i === j ? `${a} → ${b} is not allowed within the layer` : 'a lower layer imports a higher one';
    layerViolations.push(`layer violation: ${rel(from)} (${LAYERS[i].layer}) → ${rel(to)} (${LAYERS[j].layer}): ${why}`);
  }
}
problems.push(...layerViolations.sort());

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

if (args.includes('--graph')) {
  const layerOf = (f) => LAYERS[RANK.get(f)]?.layer ?? 'no layer';
  for (const [x, ys] of [...(folderEdges.get('') ?? new Map())].sort()) console.log(`${x} (${layerOf(x)}) → ${[...ys].sort().join(', ')}`);
}
if (problems.length) {
  console.error(`Import cycles and layer violations in ${rel(SRC)}/ (${problems.length}):\n${problems.join('\n')}`);
  process.exit(1);
}
console.log(
  `No import cycles and no layer violations: ${graph.size} files, ${[...folderEdges.values()].reduce((n, e) => n + e.size, 0)} folders with outgoing imports, ${LAYERS.length} layers.`,
);
