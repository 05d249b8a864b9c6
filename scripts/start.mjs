#!/usr/bin/env node
// `npm start`: build the web app when its sources changed, bundle the server,
// then run it (API + worker + built SPA on one port). Extra arguments go to the
// server, e.g. `npm start -- --demo-mail-world` or `npm start -- --role worker`.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleServer, serverNodeFlags } from './server-bundle.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const webDir = join(root, 'apps/web');
const builtIndex = join(webDir, 'dist/index.html');

function newestMtime(path) {
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

function webIsStale() {
  if (!existsSync(builtIndex)) return true;
  const built = statSync(builtIndex).mtimeMs;
  const sources = [join(webDir, 'src'), join(webDir, 'index.html'), join(root, 'packages/contracts/src')];
  return sources.some((source) => existsSync(source) && newestMtime(source) > built);
}

if (webIsStale() && !process.argv.includes('--no-build')) {
  console.log('Building the web app...');
  const build = spawnSync('npm', ['run', 'build', '-w', '@verilead/web'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

// The form guard widget (served at /form-guard.js): built the same way when its sources are newer.
const widgetDir = join(root, 'packages/form-guard');
const builtWidget = join(widgetDir, 'dist/form-guard.js');
const widgetIsStale = () => !existsSync(builtWidget) || newestMtime(join(widgetDir, 'src')) > statSync(builtWidget).mtimeMs;
if (widgetIsStale() && !process.argv.includes('--no-build')) {
  const build = spawnSync('npm', ['run', 'build', '-w', '@verilead/form-guard'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const serverArgs = process.argv.slice(2).filter((arg) => arg !== '--no-build');
// The server runs as one bundled ES module (no TypeScript transpiler in the process); `--no-build` skips only the web build.
const bundle = await bundleServer();
const server = spawn(process.execPath, [...serverNodeFlags(), bundle, ...serverArgs], {
  cwd: root,
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
