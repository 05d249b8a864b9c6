import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { readdirSync } from 'node:fs';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'apps/server/migrations/**', 'test-results/**', 'playwright-report/**'] },
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
  webBoundaries(),
);

/**
 * The web's import boundaries (issue 29). A feature is reached only through its index.ts, by the app shell and by other
 * features alike; the shared code (lib, components) never imports a feature; and no import cycle.
 * One zone per feature folder, read from disk, so a new feature is covered the day it lands.
 */
function webBoundaries() {
  const featuresDir = 'apps/web/src/features';
  const features = readdirSync(new URL(`./${featuresDir}`, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  const faces = (self) => features.filter((name) => name !== self).map((name) => `./${name}/index.ts`);
  const message = 'Import another feature only through its index.ts; shared code (lib, components) imports no feature.';
  return {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      // TypeScript sources are read for the cycle check (the plugin's default is .js only).
      'import-x/extensions': importX.flatConfigs.typescript.settings['import-x/extensions'],
      'import-x/parsers': importX.flatConfigs.typescript.settings['import-x/parsers'],
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: `${import.meta.dirname}/apps/web/tsconfig.json` })],
    },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: import.meta.dirname,
          zones: [
            ...features.map((name) => ({ target: `${featuresDir}/${name}`, from: featuresDir, except: [`./${name}`, ...faces(name)], message })),
            { target: 'apps/web/src/app', from: featuresDir, except: faces(''), message },
            { target: ['apps/web/src/lib', 'apps/web/src/components'], from: featuresDir, message },
          ],
        },
      ],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  };
}
