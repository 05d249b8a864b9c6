// Bundles the server (apps/server/src/main.ts and our workspace packages) into one ES module with esbuild, so
// `npm start`, the worker processes and the benches run plain JavaScript: no TypeScript transpiler in the process
// (tsx held about 180 MB of an idle server's memory). Packages from node_modules stay external and load as usual.
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Where the bundle goes; the server finds the repository from there (see REPO_ROOT in apps/server/src/config.ts). */
export const SERVER_BUNDLE = join(root, 'apps/server/dist/main.mjs');

/**
 * Builds the bundle (about a second) and answers its path. Several starts at once each build in their own folder, then
 * rename into place. The source map sits beside it: `NODE_OPTIONS=--enable-source-maps` gives TypeScript lines in
 * stack traces (at a cost of about 60 MB, so it is off by default).
 */
export async function bundleServer() {
  const dir = join(dirname(SERVER_BUNDLE), `.build-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  await build({
    entryPoints: [join(root, 'apps/server/src/main.ts')],
    outfile: join(dir, 'main.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
    // CommonJS packages bundled into an ES module still call require().
    banner: { js: "import { createRequire as __verileadRequire } from 'node:module'; const require = __verileadRequire(import.meta.url);" },
    plugins: [
      {
        name: 'node-modules-external',
        setup(b) {
          // Our workspace packages are TypeScript sources: bundled. Everything else comes from node_modules at run time.
          b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@verilead/') ? undefined : { path: args.path, external: true }));
        },
      },
    ],
  });
  renameSync(join(dir, 'main.mjs.map'), `${SERVER_BUNDLE}.map`);
  renameSync(join(dir, 'main.mjs'), SERVER_BUNDLE);
  rmSync(dir, { recursive: true, force: true });
  return SERVER_BUNDLE;
}

/** The default V8 old-space limit of a server process, in MB (`SERVER_HEAP_MB` overrides it). */
export const DEFAULT_SERVER_HEAP_MB = 256;

/**
 * Node's flags for a server process. V8 grows its heap lazily toward a limit of several GB, so a process that streams
 * a million rows would keep ~400 MB it no longer uses; a limit near the working set makes it collect instead (the
 * 1,000,000-row ingest peaks at ~225 MB on PostgreSQL with 256). Raise `SERVER_HEAP_MB` for very large installations.
 */
export function serverNodeFlags(env = process.env) {
  const mb = Number(env.SERVER_HEAP_MB) || DEFAULT_SERVER_HEAP_MB;
  return [`--max-old-space-size=${mb}`, '--max-semi-space-size=8'];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  console.log(`Server bundled: ${await bundleServer()}`);
}
