import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { E2E_APP_SECRET, MAIL_CATCHER_PORT } from '../playwright.config';

const root = join(import.meta.dirname, '..', '..');

/**
 * A spec's own server (the same build, a fresh embedded database, the demo mail world) on `port`, with `env` over the
 * e2e defaults (e.g. INTEGRATION_BASE_URLS pointing at local fakes). Resolves once it answers; it may start from
 * scratch (migrations, demo data: without e2e/run.mjs's prepared data directory), so it is given up to 240 s on a busy
 * machine. The caller stops it (SIGTERM).
 * `flags` replaces `--demo-mail-world` (e.g. `--demo-idp` with DNS_SERVERS pointing at the spec's own DNS server).
 */
export async function startOwnServer(port: number, env: Record<string, string>, flags: string[] = ['--demo-mail-world']): Promise<ChildProcess> {
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ['e2e/support/start-server.mjs', '--no-build', ...flags], {
    cwd: root,
    stdio: 'ignore',
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: mkdtempSync(join(tmpdir(), `verilead-e2e-${port}-`)),
      PUBLIC_URL: base,
      RATE_LIMIT_AUTH_MAX: '100000',
      RATE_LIMIT_PUBLIC_MAX: '100000',
      SMTP_URL: `smtp://127.0.0.1:${MAIL_CATCHER_PORT}`,
      APP_SECRET: E2E_APP_SECRET,
      ALLOW_PRIVATE_DESTINATIONS: 'true',
      JOB_POLL_INTERVAL_MS: '200',
      ...env,
    },
  });
  // Waited for until it answers, or until it has exited (a start that failed is not waited out).
  for (let i = 0; i < 480 && server.exitCode === null && server.signalCode === null; i += 1) {
    try {
      if ((await fetch(`${base}/api/v1/openapi.json`)).ok) return server;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  const exited = server.exitCode ?? server.signalCode;
  server.kill('SIGTERM');
  throw new Error(`the server on port ${port} did not start${exited === null ? '' : ` (it exited with ${exited})`}`);
}
