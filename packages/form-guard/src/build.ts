import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
/** The widget's budget: 10 KB gzipped. */
export const WIDGET_GZIP_BUDGET_BYTES = 10 * 1024;
export const WIDGET_OUTPUT = join(here, '..', 'dist', 'form-guard.js');

/** Bundles and minifies the widget; answers the code and its gzipped size. */
export async function buildWidget(): Promise<{ code: string; bytes: number; gzipBytes: number }> {
  const result = await build({
    entryPoints: [join(here, 'entry.ts')],
    bundle: true,
    minify: true,
    format: 'iife',
    target: ['es2020'],
    write: false,
    legalComments: 'none',
  });
  const code = result.outputFiles[0]!.text;
  return { code, bytes: Buffer.byteLength(code), gzipBytes: gzipSync(code, { level: 9 }).length };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { code, bytes, gzipBytes } = await buildWidget();
  mkdirSync(dirname(WIDGET_OUTPUT), { recursive: true });
  writeFileSync(WIDGET_OUTPUT, code);
  console.log(`form-guard.js: ${bytes} bytes, ${gzipBytes} bytes gzipped (budget ${WIDGET_GZIP_BUDGET_BYTES})`);
  if (gzipBytes > WIDGET_GZIP_BUDGET_BYTES) {
    console.error('form-guard.js is over its 10 KB gzipped budget');
    process.exit(1);
  }
}
