#!/usr/bin/env node
// `npm run test:e2e`: build the web app once, prepare one migrated and seeded data directory, then run the Playwright
// suite in Debian's Chromium (/usr/bin/chromium; never a downloaded browser).
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
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
 * The data directory every server of the suite starts from, migrated and seeded once (e2e/support/prepare-data-template.ts,
 * with the suite's own server settings). About 11 servers start in a run, each saving those 18 s or so; when it cannot
 * be prepared, the servers start from scratch.
 */
function prepareDataTemplate() {
  const started = Date.now();
  const run = spawnSync('npx', ['tsx', 'e2e/support/prepare-data-template.ts'], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  const dataDir = run.status === 0 ? run.stdout.trim() : '';
  if (!dataDir) {
    console.error('Each server of the suite starts from scratch');
    return null;
  }
  console.log(`Prepared the suite's data directory in ${Math.round((Date.now() - started) / 1000)} s`);
  return dataDir;
}

const template = prepareDataTemplate();
const run = spawnSync('npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1', ...(template ? { E2E_DATA_TEMPLATE: template } : {}) },
});
if (template) rmSync(template, { recursive: true, force: true });
process.exit(run.status ?? 1);
