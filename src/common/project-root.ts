import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The directory holding package.json and drizzle/, found by walking up from this file, so it
 * is the same whether the code runs from src/ (tests), dist/ (the build) or dist-bench/src/.
 */
export const PROJECT_ROOT: string = (() => {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, 'package.json')) || !fs.existsSync(path.join(dir, 'drizzle'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('Cannot find the project root (package.json beside drizzle/)');
    dir = parent;
  }
  return dir;
})();
