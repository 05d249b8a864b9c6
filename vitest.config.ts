import { defineConfig } from 'vitest/config';

// One runner for the whole repository; each workspace is a project so
// `vitest run --project server` can re-run the server suite on PostgreSQL.
export default defineConfig({
  test: {
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
