import { describe, expect, it } from '@jest/globals';
import type { CommandOutput } from '../../src/cli-socket/command-output.js';
import { runCliCommand, type CommandHost } from '../../src/processes/cli-commands.js';
import { loadConfig } from '../../src/config/app-config.js';

/**
 * The CLI's argument checks, which refuse a command before it opens anything: run in this process
 * on a host that fails the test if a command reaches the database or the files. The e2e files
 * (embedded-db, cli-socket, backup-cli, admin, …) run the built CLI for what reaches them.
 */
function run(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const out: CommandOutput = {
    writeOut: (text) => void (stdout += text),
    writeErr: (text) => void (stderr += text),
    progress: () => {
      throw new Error('a refused command showed progress');
    },
    stdout: { isTTY: false, hasColors: false },
    stderr: { isTTY: false, hasColors: false },
  };
  const unreachable = (what: string) => () => Promise.reject(new Error(`the command reached ${what}`));
  const host: CommandHost = {
    resolvePath: (file) => file,
    config: () => loadConfig({ DATA_DIR: '/nonexistent/st-cli-unit' }),
    withServices: unreachable('the database'),
    backupEmbedded: unreachable('backup'),
    restoreEmbedded: unreachable('restore'),
  };
  return runCliCommand(argv, out, host).then((code) => ({ code, stdout, stderr }));
}

describe('the CLI refuses bad arguments before it opens the database', () => {
  it.each(['7', 'abc', '-1', '2.5', ''])('auth-level with level %p', async (level) => {
    const r = await run('auth-level', 'someone', level);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/level must be an integer from 0 to 3/);
    expect(r.stdout).toBe('');
  });

  it('auth-level without a level names the missing argument', async () => {
    const r = await run('auth-level', 'someone');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/missing required argument 'level'/);
  });

  it.each([
    ['invites create -n 0', ['invites', 'create', '-n', '0'], /count must be an integer from 1 to 1000/],
    ['invites create -n 1001', ['invites', 'create', '-n', '1001'], /count must be an integer from 1 to 1000/],
    ['audit --limit 0', ['audit', '--limit', '0'], /limit must be an integer from 1 to 10000/],
    ['recalc --user x', ['recalc', '--user', 'x'], /user must be an integer from 1 to 2147483647/],
    ['announce with a blank title', ['announce', '   '], /The title must not be blank\./],
    ['announce with a 501-character title', ['announce', 'x'.repeat(501)], /The title must be at most 500 characters\./],
    ['announce without a title', ['announce'], /missing required argument 'title'/],
    ['rerank --games with an unknown game', ['rerank', '--games', 'sdvx,nope'], /Unknown game\(s\): nope\. Valid games: .*sdvx/],
    ['an unknown command', ['frobnicate'], /unknown command 'frobnicate'/],
  ])('%s', async (_label, argv, message) => {
    const r = await run(...argv);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(message);
  });

  it('--help lists every command and exits 0; --version prints the version', async () => {
    const help = await run('--help');
    expect(help.code).toBe(0);
    for (const command of [
      'migrate',
      'announce',
      'auth-level',
      'seeds',
      'rerank',
      'snapshot',
      'recalc',
      'delete-user',
      'audit',
      'backup',
      'restore',
      'invites',
    ])
      expect(help.stdout).toMatch(new RegExp(`^\\s+${command}\\b`, 'm'));
    const version = await run('--version');
    expect(version.code).toBe(0);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+/);
  });
});
