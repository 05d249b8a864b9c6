// `node --import ./module-log.mjs`: writes every module the process loads to MODULE_LOG (tests of what an idle server
// holds). ES modules are written as they resolve (module-log-hooks.mjs); CommonJS modules, which Node 20 loads
// without those hooks when they are required, from require's cache when the process exits.
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';

const logFile = process.env.MODULE_LOG;
if (logFile) {
  register('./module-log-hooks.mjs', import.meta.url, { data: { logFile } });
  const cjs = createRequire(import.meta.url)('node:module');
  process.on('exit', () => appendFileSync(logFile, Object.keys(cjs._cache).map((path) => `${path}\n`).join('')));
}
