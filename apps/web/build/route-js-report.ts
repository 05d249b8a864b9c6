import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

type TChunkLike = { type: 'chunk'; fileName: string; code: string; isEntry: boolean; imports: string[]; facadeModuleId: string | null };
type TBundleItem = TChunkLike | { type: 'asset'; fileName: string };

export type TRouteJsReport = { route: string; screen: string; files: number; rawBytes: number; gzipBytes: number };

/** Every chunk a route needs before it can paint: the entry's static imports plus the screen chunk's. */
function collectStaticClosure(bundle: Record<string, TBundleItem>, roots: string[]): Set<string> {
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length > 0) {
    const fileName = stack.pop()!;
    if (seen.has(fileName)) continue;
    const item = bundle[fileName];
    if (!item || item.type !== 'chunk') continue;
    seen.add(fileName);
    stack.push(...item.imports);
  }
  return seen;
}

/** Measures what each named route downloads (gzipped JavaScript), prints it and writes dist/route-js-report.json. */
export function routeJsReport(routes: Record<string, string>): Plugin {
  let outDir = 'dist';
  return {
    name: 'verilead-route-js-report',
    apply: 'build',
    configResolved(config) {
      outDir = join(config.root, config.build.outDir);
    },
    writeBundle(_options, bundle) {
      const items = bundle as unknown as Record<string, TBundleItem>;
      const chunks = Object.values(items).filter((item): item is TChunkLike => item.type === 'chunk');
      const entry = chunks.find((chunk) => chunk.isEntry);
      if (!entry) return;
      const reports: TRouteJsReport[] = [];
      for (const [route, screen] of Object.entries(routes)) {
        const screenChunk = chunks.find((chunk) => chunk.facadeModuleId?.endsWith(screen));
        if (!screenChunk) throw new Error(`route-js-report: no chunk for ${screen}`);
        const files = collectStaticClosure(items, [entry.fileName, screenChunk.fileName]);
        let rawBytes = 0;
        let gzipBytes = 0;
        for (const fileName of files) {
          const code = (items[fileName] as TChunkLike).code;
          rawBytes += Buffer.byteLength(code);
          gzipBytes += gzipSync(code, { level: 9 }).length;
        }
        reports.push({ route, screen, files: files.size, rawBytes, gzipBytes });
        console.log(`route ${route}: ${(gzipBytes / 1024).toFixed(1)} KB of gzipped JavaScript (${files.size} files, ${(rawBytes / 1024).toFixed(1)} KB raw)`);
      }
      writeFileSync(join(outDir, 'route-js-report.json'), `${JSON.stringify(reports, null, 2)}\n`);
    },
  };
}
