import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

type TChunkLike = { type: 'chunk'; fileName: string; code: string; isEntry: boolean; imports: string[]; facadeModuleId: string | null };
type TBundleItem = TChunkLike | { type: 'asset'; fileName: string };

export type TRouteJsChunk = { fileName: string; rawBytes: number; gzipBytes: number };
export type TRouteJsReport = {
  route: string;
  screen: string;
  files: number;
  rawBytes: number;
  gzipBytes: number;
  budgetBytes: number | null;
  overBudget: boolean;
  chunks: TRouteJsChunk[];
};
/** `alsoLoads`: modules the route's lazy loader imports beside the screen (route-table.tsx's query boundary). */
export type TRouteJsTarget = { screen: string; alsoLoads?: string[]; budgetKb?: number };

/** Every chunk a route needs before it can paint: the entry's static imports plus the screen chunk's (all modulepreloaded). */
export function collectStaticClosure(bundle: Record<string, TBundleItem>, roots: string[]): Set<string> {
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

/** Gzipped size (level 9, as the precompressed .gz files) of each chunk a route loads, largest first, and the budget verdict. */
export function measureRoutes(bundle: Record<string, TBundleItem>, routes: Record<string, TRouteJsTarget>): TRouteJsReport[] {
  const chunks = Object.values(bundle).filter((item): item is TChunkLike => item.type === 'chunk');
  const entry = chunks.find((chunk) => chunk.isEntry);
  if (!entry) return [];
  const chunkOf = (module: string) => {
    const found = chunks.find((chunk) => chunk.facadeModuleId?.endsWith(module));
    if (!found) throw new Error(`route-js-report: no chunk for ${module}`);
    return found.fileName;
  };
  return Object.entries(routes).map(([route, { screen, alsoLoads = [], budgetKb }]) => {
    const files = collectStaticClosure(bundle, [entry.fileName, chunkOf(screen), ...alsoLoads.map(chunkOf)]);
    const measured: TRouteJsChunk[] = [...files].map((fileName) => {
      const code = (bundle[fileName] as TChunkLike).code;
      return { fileName, rawBytes: Buffer.byteLength(code), gzipBytes: gzipSync(code, { level: 9 }).length };
    });
    measured.sort((a, b) => b.gzipBytes - a.gzipBytes);
    const rawBytes = measured.reduce((sum, chunk) => sum + chunk.rawBytes, 0);
    const gzipBytes = measured.reduce((sum, chunk) => sum + chunk.gzipBytes, 0);
    const budgetBytes = budgetKb === undefined ? null : budgetKb * 1024;
    return { route, screen, files: files.size, rawBytes, gzipBytes, budgetBytes, overBudget: budgetBytes !== null && gzipBytes > budgetBytes, chunks: measured };
  });
}

export function formatRouteReport(report: TRouteJsReport): string {
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  const budget =
    report.budgetBytes === null ? '' : report.overBudget ? `; OVER its ${kb(report.budgetBytes)} budget by ${kb(report.gzipBytes - report.budgetBytes)}` : `; budget ${kb(report.budgetBytes)}`;
  return `route ${report.route}: ${kb(report.gzipBytes)} of gzipped JavaScript (${report.files} files, ${kb(report.rawBytes)} raw${budget})`;
}

/**
 * Measures what each named route downloads (gzipped JavaScript), prints it and writes dist/route-js-report.json.
 * With `strict`, a route over its budget fails the build (as packages/form-guard does for its widget).
 */
export function routeJsReport(routes: Record<string, TRouteJsTarget>, options: { strict?: boolean } = {}): Plugin {
  let outDir = 'dist';
  return {
    name: 'verilead-route-js-report',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    writeBundle(_options, bundle) {
      const reports = measureRoutes(bundle as unknown as Record<string, TBundleItem>, routes);
      if (reports.length === 0) return;
      for (const report of reports) {
        console.log(formatRouteReport(report));
        for (const chunk of report.chunks.slice(0, 8)) console.log(`  ${(chunk.gzipBytes / 1024).toFixed(1).padStart(6)} KB  ${chunk.fileName}`);
      }
      mkdirSync(outDir, { recursive: true });
      writeFileSync(join(outDir, 'route-js-report.json'), `${JSON.stringify(reports, null, 2)}\n`);
      const over = reports.filter((report) => report.overBudget);
      if (options.strict && over.length > 0) this.error(`over the gzipped JavaScript budget: ${over.map((report) => report.route).join(', ')}`);
    },
  };
}
