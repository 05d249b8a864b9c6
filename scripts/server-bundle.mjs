// Bundles the server (apps/server/src/main.ts and our workspace packages) into ES modules with esbuild, so
// `npm start`, the worker processes and the benches run plain JavaScript: no TypeScript transpiler in the process
// (tsx held about 180 MB of an idle server's memory). Packages from node_modules stay external and load as usual.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Where the bundle goes; the server finds the repository from there (see REPO_ROOT in apps/server/src/config.ts). */
export const SERVER_BUNDLE = join(root, 'apps/server/dist/main.mjs');
/** The bundle's chunks, beside the entry: `chunks/<name>-<content hash>.mjs`. */
export const SERVER_CHUNKS_DIR = join(dirname(SERVER_BUNDLE), 'chunks');
/** A chunk no build has written for this long, and not part of the newest build, is deleted. */
const STALE_CHUNK_MS = 24 * 60 * 60 * 1000;

/**
 * Builds the bundle (about a second) and answers its path. Code splitting keeps every dynamic `import()` of ours
 * dynamic: the module and the packages only it imports (faker, the SAML stack, the payment and integration SDKs,
 * PGlite, ExcelJS, ...) become a chunk loaded on first use instead of static imports of the entry, so an idle server
 * holds only what it runs.
 *
 * Several starts at once each build in their own folder, then move the result into place: first the chunks (a
 * chunk's name carries the hash of its content, so a same-named chunk is the same code and a running server's chunks
 * are never changed under it), then the entry by one rename. Chunks of older builds stay a day for servers still
 * running them. The source maps sit beside each file: `NODE_OPTIONS=--enable-source-maps` gives TypeScript lines in
 * stack traces (at a cost of about 60 MB, so it is off by default).
 */
export async function bundleServer() {
  const distDir = dirname(SERVER_BUNDLE);
  const dir = join(distDir, `.build-${process.pid}-${randomBytes(4).toString('hex')}`);
  mkdirSync(dir, { recursive: true });
  try {
    await build({
      entryPoints: { main: join(root, 'apps/server/src/main.ts') },
      outdir: dir,
      splitting: true,
      entryNames: '[name]',
      chunkNames: 'chunks/[name]-[hash]',
      outExtension: { '.js': '.mjs' },
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      sourcemap: 'linked',
      logLevel: 'warning',
      // CommonJS packages bundled into an ES module still call require() (the banner goes into every chunk).
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
    mkdirSync(SERVER_CHUNKS_DIR, { recursive: true });
    const built = readdirSync(join(dir, 'chunks'));
    for (const file of built) renameSync(join(dir, 'chunks', file), join(SERVER_CHUNKS_DIR, file));
    renameSync(join(dir, 'main.mjs.map'), `${SERVER_BUNDLE}.map`);
    renameSync(join(dir, 'main.mjs'), SERVER_BUNDLE);
    deleteStaleChunks(new Set(built));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return SERVER_BUNDLE;
}

/** Deletes chunks (and maps) that are not part of the newest build and that no build has written for a day. */
function deleteStaleChunks(current) {
  const now = Date.now();
  for (const file of readdirSync(SERVER_CHUNKS_DIR)) {
    if (current.has(file)) continue;
    const path = join(SERVER_CHUNKS_DIR, file);
    try {
      if (now - statSync(path).mtimeMs > STALE_CHUNK_MS) rmSync(path, { force: true });
    } catch {
      /* deleted by another build meanwhile */
    }
  }
}

/** The default V8 old-space limit of a server process, in MB (`SERVER_HEAP_MB` overrides it). */
export const DEFAULT_SERVER_HEAP_MB = 256;

/**
 * Node's flags for a server process. V8 grows its heap lazily toward a limit of several GB, so a process that streams
 * a million rows would keep ~400 MB it no longer uses; a limit near the working set makes it collect instead (the
 * 1,000,000-row ingest peaks at ~225 MB on PostgreSQL with 256). Raise `SERVER_HEAP_MB` for very large installations.
 *
 * `--no-liftoff`: the embedded database (PGlite) is a 9 MB WebAssembly module. By default V8 compiles each of its
 * functions twice, first with its baseline compiler (Liftoff) and again, once hot, with the optimizing one, and keeps
 * both; compiling with the optimizing compiler only (still lazily, function by function) keeps one copy. Measured on
 * PGlite: a 1,000,000-row ingest peaks at 277 MiB instead of 313–340 MiB, just as fast (12 s); a first start (initdb,
 * migrations, demo seed) takes ~2.5 s longer. The only other WebAssembly is the small HTTP parser of Node's own fetch.
 */
export function serverNodeFlags(env = process.env) {
  const mb = Number(env.SERVER_HEAP_MB) || DEFAULT_SERVER_HEAP_MB;
  return [`--max-old-space-size=${mb}`, '--max-semi-space-size=8', '--no-liftoff'];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  console.log(`Server bundled: ${await bundleServer()}`);
}
