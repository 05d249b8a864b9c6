import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAIN_PORT } from '../playwright.config';
import { startOwnServer } from './own-server';

/**
 * Run by e2e/run.mjs before the suite (`tsx e2e/support/prepare-data-template.ts`): the data directory every server of
 * the suite starts from (start-server.mjs copies it into its own empty DATA_DIR). One server started on a new directory
 * with the suite's settings migrates the embedded database and seeds the demo organisation and directory, then is
 * stopped. Prints the directory's path; exits non-zero (and leaves nothing) when the server did not start or stop cleanly.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'verilead-e2e-template-'));
try {
  const server = await startOwnServer(MAIN_PORT + 45, { DATA_DIR: dataDir });
  const exited = once(server, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  server.kill('SIGTERM');
  const [code, signal] = await exited;
  if (code !== 0) throw new Error(`the server stopped with ${code ?? signal}`);
  process.stdout.write(`${dataDir}\n`);
} catch (err) {
  rmSync(dataDir, { recursive: true, force: true });
  console.error(`The suite's data directory could not be prepared: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
}
