import { afterAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../../src/common/project-root.js';

/** scripts/check-cycles.mjs (npm run check:cycles) run on small source trees: its layer check. */
const SCRIPT = path.join(PROJECT_ROOT, 'scripts', 'check-cycles.mjs');
const made: string[] = [];

afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

/** A fixture tree that follows the layers: a process, two features, the platform, a repository, a presenter, the schema, a game and the leaves. */
const LAYERED: Record<string, string> = {
  'main.ts': "import { UsersModule } from './users/users.module.js';\nexport const app = [UsersModule];\n",
  'users/users.module.ts':
    "import { UsersService } from './users.service.js';\nimport { login } from '../auth/auth.service.js';\nexport const UsersModule = [UsersService, login];\n",
  'users/users.service.ts':
    "import { findUser } from '../repositories/users.repository.js';\nimport { toUserDocument } from '../presenters/user.presenter.js';\nimport { guard } from '../http/guard.js';\nexport const UsersService = [findUser, toUserDocument, guard];\n",
  'auth/auth.service.ts': "import { put } from '../storage/storage.js';\nexport const login = put;\n",
  'http/guard.ts': "import { findUser } from '../repositories/users.repository.js';\nexport const guard = findUser;\n",
  'storage/storage.ts': "import { config } from '../config/config.js';\nexport const put = config;\n",
  'repositories/users.repository.ts': "import { users } from '../database/schema.js';\nexport const findUser = users;\n",
  'presenters/user.presenter.ts': "import type { UserRow } from '../database/schema.js';\nexport const toUserDocument = (u: UserRow) => u;\n",
  'database/schema.ts': "import { GAMES } from '../game-support/registry.js';\nexport const users = GAMES;\nexport type UserRow = { id: number };\n",
  'game-support/registry.ts': "import { sum } from '../common/collections.js';\nexport const GAMES = sum;\n",
  'config/config.ts': "import { sum } from '../common/collections.js';\nexport const config = sum;\n",
  'common/collections.ts': 'export const sum = 0;\n',
};

/** Writes the tree (with `changes` on top: a file's text, or null to leave it out) under a new src/ and runs the checker on it. */
function check(changes: Record<string, string | null> = {}) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'layers-'));
  made.push(root);
  const src = path.join(root, 'src');
  for (const [file, text] of Object.entries({ ...LAYERED, ...changes })) {
    if (text === null) continue;
    fs.mkdirSync(path.dirname(path.join(src, file)), { recursive: true });
    fs.writeFileSync(path.join(src, file), text);
  }
  const run = spawnSync(process.execPath, [SCRIPT, src], { encoding: 'utf8' });
  return { status: run.status, out: run.stdout + run.stderr };
}

describe('the layer check (scripts/check-cycles.mjs)', () => {
  it('passes a tree whose imports point down the layers', () => {
    const { status, out } = check();
    expect(out).toContain('no layer violations');
    expect(status).toBe(0);
  });

  it('fails on a lower layer importing a higher one, naming both files and both layers', () => {
    const { status, out } = check({
      'repositories/users.repository.ts':
        "import { users } from '../database/schema.js';\nimport { toUserDocument } from '../presenters/user.presenter.js';\nexport const findUser = [users, toUserDocument];\n",
      'presenters/user.presenter.ts': "import { UsersService } from '../users/users.service.js';\nexport const toUserDocument = UsersService;\n",
    });
    expect(status).toBe(1);
    expect(out).toContain(
      'layer violation: src/presenters/user.presenter.ts (presenters) → src/users/users.service.ts (features): a lower layer imports a higher one',
    );
    // Repositories sit above presenters: that import is allowed (the cycle it closes is reported as a cycle, not as a layer violation).
    expect(out).not.toContain('layer violation: src/repositories/');
  });

  it('fails on an import between folders of one layer unless the layer allows it', () => {
    const refused = check({
      'http/guard.ts': "import { login } from '../scoring/pb.js';\nexport const guard = login;\n",
      'scoring/pb.ts': 'export const login = 1;\n',
    });
    expect(refused.status).toBe(1);
    expect(refused.out).toContain(
      'layer violation: src/http/guard.ts (platform) → src/scoring/pb.ts (platform): http → scoring is not allowed within the layer',
    );

    const gameRulesQuery = check({
      'game-support/registry.ts': "import { users } from '../database/schema.js';\nexport const GAMES = users;\n",
      'database/schema.ts': 'export const users = 1;\n',
    });
    expect(gameRulesQuery.status).toBe(1);
    expect(gameRulesQuery.out).toContain('(data) → src/database/schema.ts (data): game-support → database is not allowed within the layer');

    // feature → feature is allowed (users → auth in the base tree), as is database → game-support.
    expect(check().status).toBe(0);
  });

  it('fails on a top-level folder or file the layer table does not list', () => {
    const { status, out } = check({
      'widgets/widget.ts': "import { sum } from '../common/collections.js';\nexport const widget = sum;\n",
      'extra.ts': 'export const x = 1;\n',
    });
    expect(status).toBe(1);
    expect(out).toContain('unknown top-level folder src/widgets: add it to the layer table');
    expect(out).toContain('unknown top-level file src/extra.ts: add it to the layer table');
  });

  it('still fails on a folder cycle', () => {
    const { status, out } = check({ 'common/collections.ts': "import { config } from '../config/config.js';\nexport const sum = config;\n" });
    expect(status).toBe(1);
    expect(out).toContain('folder cycle in src/: common ⇄ config');
  });
});
