// The project's lint rules, in the eslintrc format the design card names. ESLint 10 reads only flat
// config, so eslint.config.js loads this file through @eslint/eslintrc's FlatCompat.
export default {
  root: true,
  parser: '@typescript-eslint/parser',
  parserOptions: { projectService: true, sourceType: 'module', ecmaVersion: 2023 },
  plugins: ['@typescript-eslint'],
  extends: ['eslint:recommended', 'plugin:@typescript-eslint/recommended', 'prettier'],
  env: { node: true, es2023: true },
  rules: {
    '@typescript-eslint/no-floating-promises': 'error',
    '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
    '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    '@typescript-eslint/consistent-type-imports': ['error', { prefer: 'type-imports', fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
    '@typescript-eslint/no-explicit-any': 'error',
    'no-console': ['error', { allow: ['error', 'warn'] }],
    eqeqeq: ['error', 'always'],
  },
  overrides: [
    { files: ['test/**/*.ts', 'src/**/*.spec.ts'], env: { jest: true } },
    { files: ['src/cli.ts', 'src/main.ts', 'src/worker.ts', 'bench/**/*.ts', 'scripts/**'], rules: { 'no-console': 'off' } },
  ],
};
