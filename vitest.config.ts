import { defineConfig } from 'vitest/config';

// One runner for the whole repository; each workspace is a project so
// `vitest run --project server --project server-isolated` can re-run the server suite on PostgreSQL.

/** Server test files that mock a module (vi.mock): kept out of the shared-module `server` project. */
const SERVER_MODULE_MOCKS = ['src/features/integrations/adapters/rebinding-redirect.test.ts', 'src/features/operations/readiness-probe.test.ts'];

export default defineConfig({
  test: {
    // Vitest's default is one worker per core but one, which is a single worker on the 2-core CI machine. Much of the
    // suite waits on sockets, child processes and databases: 2 workers took the embedded-database run from 1,300-1,490 s
    // to 974 s there.
    maxWorkers: 2,
    projects: [
      { test: { name: 'contracts', root: 'packages/contracts', include: ['src/**/*.test.ts'] } },
      { test: { name: 'verifier', root: 'packages/verifier', include: ['src/**/*.test.ts', 'test/**/*.test.ts'], testTimeout: 120_000 } },
      { test: { name: 'form-guard', root: 'packages/form-guard', include: ['src/**/*.test.ts'], environment: 'jsdom' } },
      { test: { name: 'mailworld', root: 'packages/mailworld', include: ['src/**/*.test.ts'], testTimeout: 60_000 } },
      { test: { name: 'test-doubles', root: 'packages/test-doubles', include: ['src/**/*.test.ts'] } },
      {
        test: {
          name: 'server',
          root: 'apps/server',
          include: ['src/**/*.test.ts'],
          exclude: SERVER_MODULE_MOCKS,
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks',
          // The files of a worker share its module graph: the app's modules are imported once per worker, not once per
          // file (each file still boots its own app on a copy of the migrated template). Sample of 6 boot-per-file
          // files on PGlite: 220 s -> 124 s (import 59 s -> 13 s).
          isolate: false,
        },
      },
      // Files that replace a module (vi.mock) run in a process of their own, so the mock never reaches another file.
      {
        test: {
          name: 'server-isolated',
          root: 'apps/server',
          include: SERVER_MODULE_MOCKS,
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks',
        },
      },
      {
        test: {
          name: 'web',
          root: 'apps/web',
          include: ['src/**/*.test.{ts,tsx}', 'build/**/*.test.ts'],
          environment: 'jsdom',
          setupFiles: ['./src/test/setup.ts'],
          // A hang guard, not a speed check: screens driven by user-event take seconds on a busy 2-core machine.
          testTimeout: 20_000,
        },
      },
    ],
  },
});
