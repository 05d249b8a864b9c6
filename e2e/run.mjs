#!/usr/bin/env node
// `npm run test:e2e`: build the web app once, prepare one migrated and seeded data directory, then run the Playwright
// suite in Debian's Chromium (/usr/bin/chromium; never a downloaded browser).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
if (!existsSync('/usr/bin/chromium')) {
  console.error('Debian Chromium is missing: apt-get update && apt-get install -y chromium');
  process.exit(1);
}
const widget = spawnSync('npm', ['run', 'build', '-w', '@verilead/form-guard'], { cwd: root, stdio: 'inherit' });
if (widget.status !== 0) process.exit(widget.status ?? 1);
const build = spawnSync('npm', ['run', 'build', '-w', '@verilead/web'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

/**
 * The data directory every server of the suite starts from (e2e/support/start-server.mjs copies it into its own empty
 * DATA_DIR): one server started once on it migrates the embedded database and seeds the demo organisation and
 * directory, then is stopped. About 11 servers start in a run, each saving those 18 s or so; a start that fails here
 * leaves the servers to start from scratch.
 */
async function prepareDataTemplate() {
  const port = Number(process.env.E2E_PORT_BASE ?? 4310) + 45;
  const dataDir = mkdtempSync(join(tmpdir(), 'verilead-e2e-template-'));
  const started = Date.now();
  const server = spawn(process.execPath, ['scripts/start.mjs', '--no-build', '--demo-mail-world'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, PUBLIC_URL: `http://127.0.0.1:${port}`, APP_SECRET: 'e2e-app-secret-not-for-production-0123456789' },
  });
  const exited = new Promise((resolve) => server.once('exit', (code, signal) => resolve(code ?? signal)));
  let up = false;
  for (let i = 0; i < 480 && server.exitCode === null && !up; i += 1) {
    up = await fetch(`http://127.0.0.1:${port}/api/v1/openapi.json`).then(
      (r) => r.ok,
      () => false,
    );
    if (!up) await new Promise((resolve) => setTimeout(resolve, 500));
  }
  server.kill('SIGTERM');
  const end = await exited;
  if (!up || end !== 0) {
    console.error(`The suite's data directory could not be prepared (server ${up ? `stopped with ${end}` : 'did not start'}): each server starts from scratch`);
    rmSync(dataDir, { recursive: true, force: true });
    return null;
  }
  console.log(`Prepared the suite's data directory in ${Math.round((Date.now() - started) / 1000)} s`);
  return dataDir;
}

const template = await prepareDataTemplate();
const run = spawnSync('npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1', ...(template ? { E2E_DATA_TEMPLATE: template } : {}) },
});
if (template) rmSync(template, { recursive: true, force: true });
process.exit(run.status ?? 1);
