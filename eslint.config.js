import { FlatCompat } from '@eslint/eslintrc';
import js from '@eslint/js';
import legacyConfig from './.eslintrc.js';

const compat = new FlatCompat({ baseDirectory: import.meta.dirname, recommendedConfig: js.configs.recommended });

export default [
  { ignores: ['dist/**', 'dist-bench/**', 'node_modules/**', 'coverage/**', 'drizzle/**', 'data/**', '*.js', 'scripts/**', 'examples/**'] },
  ...compat.config(legacyConfig),
];
