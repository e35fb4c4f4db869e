import Sequencer from '@jest/test-sequencer';
import fs from 'node:fs';

/** A test file that starts the built server or the CLI as child processes (the slowest files: tens of seconds each). */
const SPAWNS = /from '\.\.\/support\/(cli|server-process)\.js'/;

/**
 * Jest's order (files that failed last time first, then the longest by the previous run's
 * timings, and by file size where there are none), except that on a run without timings (a fresh
 * clone, CI's clean copy) the files that spawn processes go first: they are short files but the
 * longest to run, and by size they would start last and leave one worker running them alone.
 */
export default class SpawningFilesFirst extends Sequencer {
  sort(tests) {
    const ordered = super.sort(tests);
    const first = (test) => test.duration == null && SPAWNS.test(fs.readFileSync(test.path, 'utf8'));
    const spawning = ordered.filter(first);
    return [...spawning, ...ordered.filter((test) => !spawning.includes(test))];
  }
}
