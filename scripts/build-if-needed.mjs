// Builds dist/ (Nest's SWC builder, a second or two) when it is missing or older than any source, so `npm start`, `npm run cli` and
// `npm run worker` work on a fresh clone. Concurrent callers (parallel test files) take turns
// through a lock directory, so no one runs dist/ while another caller is rebuilding it.
// In the Docker image only dist/ ships, without src/: there it does nothing.
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const built = path.join(root, 'dist', 'main.js');
const lock = path.join(root, '.build-lock');
const STALE_LOCK_MS = 5 * 60 * 1000;

function newest(dir) {
  let latest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : fs.statSync(full).mtimeMs);
  }
  return latest;
}

function stale() {
  const sources = Math.max(
    newest(path.join(root, 'src')),
    ...['package.json', 'tsconfig.json', 'tsconfig.build.json', 'nest-cli.json', '.swcrc'].map((f) => fs.statSync(path.join(root, f)).mtimeMs),
  );
  return (fs.existsSync(built) ? fs.statSync(built).mtimeMs : 0) < sources;
}

function acquire() {
  for (;;) {
    try {
      fs.mkdirSync(lock);
      return;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      if (Date.now() - fs.statSync(lock).mtimeMs > STALE_LOCK_MS) fs.rmSync(lock, { recursive: true, force: true });
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
}

if (!fs.existsSync(path.join(root, 'src'))) {
  if (!fs.existsSync(built)) {
    console.error('dist/main.js is missing and there is no src/ to build it from.');
    process.exit(1);
  }
} else if (stale()) {
  acquire();
  try {
    if (stale()) {
      const started = Date.now();
      console.error(fs.existsSync(built) ? 'Building dist/ (the sources changed since the last build)…' : 'Building dist/ from src/ (first run)…');
      execSync('npm run build --silent', { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
      console.error(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
    }
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}
