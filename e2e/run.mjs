#!/usr/bin/env node
// `npm run test:e2e`: build the web app once, then run the Playwright suite in
// Debian's Chromium (/usr/bin/chromium; never a downloaded browser).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
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
const run = spawnSync('npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
});
process.exit(run.status ?? 1);
