import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

export default tseslint.config(
  // Generated code is not linted: apps/server/src/generated holds the output of generators (each file says which).
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'apps/server/migrations/**', 'apps/server/src/generated/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'warn',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  // The test doubles (@verilead/test-doubles: fake Stripe, PayPal, integration platforms, identity providers) are wired
  // by the composition root (src/main.ts, src/runtime.ts, src/app.ts) and used by tests; the product never imports them.
  {
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/**/*.test.ts', 'apps/server/src/**/test-support.ts', 'apps/server/src/test/**'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver({ project: ['apps/server/tsconfig.json'] })] },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: ['./apps/server/src/features', './apps/server/src/platform', './apps/server/src/config.ts', './apps/server/src/seed.ts', './apps/server/src/ops.ts', './apps/server/src/schema.ts'],
              from: './packages/test-doubles',
              message: 'Product code never imports the test doubles: the composition root hands them over as config.testDoubles (see src/platform/test-doubles.ts).',
            },
          ],
        },
      ],
    },
  },
);
