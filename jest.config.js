/**
 * Jest runs the TypeScript sources as native ES modules (NestJS 12 ships ESM only), transpiled by
 * SWC with legacy decorators and decorator metadata; `npm test` sets --experimental-vm-modules.
 */
const swc = [
  '@swc/jest',
  {
    // The build's .swcrc is not read: these options are the tests' own.
    swcrc: false,
    jsc: {
      target: 'es2023',
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    },
    module: { type: 'es6' },
    sourceMaps: 'inline',
  },
];

const common = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': swc },
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
};

export default {
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.spec.ts', '<rootDir>/src/**/*.spec.ts'] },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'],
    },
    { ...common, displayName: 'service', testMatch: ['<rootDir>/test/service/**/*.spec.ts'] },
  ],
  // A global option: jest ignores testTimeout inside a project. The e2e hooks boot whole apps, and
  // late in a full run on 2 cores a boot with its fixtures took over 30 s (one slow setup must not fail a file).
  testTimeout: 120000,
  // Each test file re-evaluates the app's ES modules in a fresh VM context, and one process running
  // them all grew past a 4 GB heap (the GC then took ~90% of the time). Jest runs the files in worker
  // processes and replaces a worker once it holds more than this after a file; two workers keep both
  // cores busy while the other waits on PostgreSQL, Redis, SMTP or a child process.
  maxWorkers: 2,
  // Without earlier timings, files that start child processes run first (scripts/test-sequencer.mjs).
  testSequencer: '<rootDir>/scripts/test-sequencer.mjs',
  workerIdleMemoryLimit: '1GB',
};
