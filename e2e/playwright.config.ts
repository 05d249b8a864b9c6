import { defineConfig } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Two servers from the same build, each with its own fresh embedded database:
// the main one, and one whose minimum app version is higher than the web app's,
// so the version-update modal (418) is exercised against the real server.
// E2E_PORT_BASE moves all three ports (main, outdated, mail catcher) so two checkouts can run the suite at once.
const PORT_BASE = Number(process.env.E2E_PORT_BASE ?? 4310);
export const MAIN_PORT = PORT_BASE;
export const OUTDATED_PORT = PORT_BASE + 1;
export const MAIL_CATCHER_PORT = PORT_BASE + 15;
/** `--demo-idp` on the main server: local OpenID Connect (PORT+30) and SAML (PORT+31) identity providers. */
export const DEMO_OIDC_ISSUER = `http://127.0.0.1:${MAIN_PORT + 30}`;
export const DEMO_SAML_SSO_URL = `http://127.0.0.1:${MAIN_PORT + 31}/saml/sso`;
/** Shared with the operator command in announcements.spec.ts. */
export const E2E_APP_SECRET = 'e2e-app-secret-not-for-production-0123456789';

const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

function serverEnv(port: number, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: mkdtempSync(join(tmpdir(), `verilead-e2e-${port}-`)),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    RATE_LIMIT_AUTH_MAX: '100000',
    RATE_LIMIT_PUBLIC_MAX: '100000',
    SMTP_URL: `smtp://127.0.0.1:${MAIL_CATCHER_PORT}`,
    APP_SECRET: E2E_APP_SECRET,
    // Several specs leave jobs behind (webhook retries, finder searches); more worker loops keep exports prompt.
    JOB_CONCURRENCY: '4',
    ...extra,
  };
}

const root = join(import.meta.dirname, '..');

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  globalSetup: './support/global-setup.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list'], ['json', { outputFile: join(root, 'test-results/e2e.json') }]],
  outputDir: join(root, 'test-results/e2e'),
  use: {
    baseURL: `http://127.0.0.1:${MAIN_PORT}`,
    browserName: 'chromium',
    launchOptions: { executablePath: '/usr/bin/chromium', args: chromiumArgs },
    screenshot: 'only-on-failure',
    trace: 'off',
  },
  webServer: [
    {
      command: 'node e2e/support/start-server.mjs --no-build --demo-mail-world --demo-idp',
      cwd: root,
      url: `http://127.0.0.1:${MAIN_PORT}/api/v1/openapi.json`,
      env: serverEnv(MAIN_PORT, { ALLOW_PRIVATE_DESTINATIONS: 'true' }),
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      command: 'node e2e/support/start-server.mjs --no-build --demo-mail-world',
      cwd: root,
      url: `http://127.0.0.1:${OUTDATED_PORT}/api/v1/openapi.json`,
      // Its sign-in page and a webhook call are used (version.spec, developer.spec): no prospect directory seeded when it
      // starts from scratch, and its job queues polled seldom (an idle server's polling costs CPU the suite needs on a
      // 2-core machine).
      env: serverEnv(OUTDATED_PORT, { MIN_APP_VERSION: '99.0.0', APP_UPDATE_CODE: 'clear_storage_reload', PROSPECT_DEMO_DIRECTORY: 'false', JOB_POLL_INTERVAL_MS: '5000' }),
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
    },
  ],
});
