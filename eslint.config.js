import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// ---------- import boundaries (server and packages) ----------
// Paths are resolved from this file, so the rules read the same whichever folder eslint is started from.
const ROOT = dirname(fileURLToPath(import.meta.url));
const SERVER_FEATURES = 'apps/server/src/features';
const serverFeatures = readdirSync(join(ROOT, SERVER_FEATURES), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
/** Test files may reach inside any feature (fixtures, internals under test); product code may not. */
const SERVER_TEST_FILES = ['apps/server/src/**/*.test.ts', 'apps/server/src/test/**', 'apps/server/src/**/test-support.ts', 'apps/server/src/**/*-test-support.ts'];
const importSettings = {
  'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
  'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
  'import-x/resolver-next': [createTypeScriptImportResolver({ project: ['apps/server/tsconfig.json', 'packages/*/tsconfig.json'], noWarnOnMultipleProjects: true })],
};

// ESLint keeps one set of options per rule and file: a later block that sets import-x/no-restricted-paths on these files
// replaces these zones rather than adding to them, so every server zone belongs in this one list.
const serverBoundaryZones = [
  // A feature's public face is its index.ts: another feature, or the composition root (app, runtime, main, ops, seed), imports nothing else of it.
  ...serverFeatures.map((f) => ({
    target: [`${SERVER_FEATURES}/!(${f})/**`, 'apps/server/src/!(schema|seed).ts'],
    from: `${SERVER_FEATURES}/${f}`,
    except: ['./index.ts'],
    message: `Import the ${f} feature through its public face, features/${f}/index.ts.`,
  })),
  // drizzle-kit's schema (and the demo seed, which writes rows directly) read each feature's tables.
  ...serverFeatures.map((f) => ({
    target: ['apps/server/src/schema.ts', 'apps/server/src/seed.ts'],
    from: `${SERVER_FEATURES}/${f}`,
    except: ['./index.ts', './tables.ts'],
    message: `Import the ${f} feature through features/${f}/index.ts (or its tables.ts, for the schema).`,
  })),
  { target: 'apps/server/src/platform', from: SERVER_FEATURES, message: 'The platform sits below every feature: it never imports one.' },
  // The test doubles' package is wired by the composition root only (main, runtime, app); product code never imports it.
  {
    target: [SERVER_FEATURES, 'apps/server/src/platform', 'apps/server/src/config.ts', 'apps/server/src/seed.ts', 'apps/server/src/ops.ts', 'apps/server/src/schema.ts'],
    from: 'packages/test-doubles',
    message: 'Product code never imports the test doubles: the composition root hands them over.',
  },
  {
    target: [`${SERVER_FEATURES}/**/routes.ts`, `${SERVER_FEATURES}/**/*-routes.ts`, `${SERVER_FEATURES}/**/*-route.ts`],
    from: ['apps/server/node_modules/drizzle-orm', 'node_modules/drizzle-orm'],
    message: "Routes stay thin: SQL goes in the feature's queries.",
  },
];

/**
 * Where the ORM may be imported in the server's features and platform: a feature's SQL lives in its queries
 * (`queries.ts`, `*-queries.ts`) or a store (`*-store.ts`), over its `tables.ts`; the platform's database layer is
 * platform/db. No service holds SQL: there is no exception list (the last legacy files moved their SQL in issue 29).
 */
const ORM_FILES = [
  'apps/server/src/**/queries.ts',
  'apps/server/src/**/*-queries.ts',
  'apps/server/src/**/*-store.ts',
  'apps/server/src/**/tables.ts',
  // the list tables' shared column definitions
  'apps/server/src/platform/bulk-lists/list-columns.ts',
  'apps/server/src/platform/db/**',
];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '.tsbuild/**', 'data/**', 'apps/server/migrations/**', 'test-results/**', 'playwright-report/**'] },
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
  {
    files: ['apps/server/src/**/*.ts'],
    ignores: SERVER_TEST_FILES,
    plugins: { 'import-x': importX },
    settings: importSettings,
    rules: { 'import-x/no-restricted-paths': ['error', { basePath: ROOT, zones: serverBoundaryZones }] },
  },
  {
    files: ['apps/server/src/**/*.ts', 'packages/*/src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: importSettings,
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['apps/server/src/features/**/*.ts', 'apps/server/src/platform/**/*.ts'],
    ignores: [...SERVER_TEST_FILES, ...ORM_FILES],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'drizzle-orm', message: "SQL lives in the feature's queries (queries.ts or *-queries.ts) over its tables.ts." }],
          patterns: [
            { group: ['drizzle-orm/*'], message: "SQL lives in the feature's queries (queries.ts or *-queries.ts) over its tables.ts." },
            // platform/db re-exports drizzle's sql tag: a service writing SQL through it is SQL outside the queries all the same.
            { group: ['**/db/database', './database'], importNames: ['sql'], message: "SQL lives in the feature's queries (queries.ts or *-queries.ts) over its tables.ts." },
          ],
        },
      ],
    },
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
