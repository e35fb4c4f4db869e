import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../common/project-root.js';

/** The running server's version, from package.json. */
export const SERVER_VERSION: string = (JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
