import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { formatRouteReport, measureRoutes } from './route-js-report';

type TFakeChunk = { type: 'chunk'; fileName: string; code: string; isEntry: boolean; imports: string[]; facadeModuleId: string | null };

function chunk(fileName: string, bytes: number, imports: string[] = [], extra: Partial<TFakeChunk> = {}): TFakeChunk {
  // Random text does not compress much, so the gzipped size follows `bytes`.
  return { type: 'chunk', fileName, code: randomBytes(bytes).toString('base64'), isEntry: false, imports, facadeModuleId: null, ...extra };
}

function bundleOf(...chunks: TFakeChunk[]) {
  return Object.fromEntries(chunks.map((item) => [item.fileName, item]));
}

describe('route JavaScript report', () => {
  const bundle = bundleOf(
    chunk('index.js', 60_000, ['react.js'], { isEntry: true }),
    chunk('react.js', 30_000),
    chunk('login.js', 3_000, ['form.js'], { facadeModuleId: '/app/src/login-screen.tsx' }),
    chunk('form.js', 9_000),
    chunk('charts.js', 300_000),
  );

  it('counts the entry, the screen and everything they import statically, not other routes', () => {
    const [report] = measureRoutes(bundle, { '/login': { screen: 'src/login-screen.tsx' } });
    expect(report!.chunks.map((item) => item.fileName).sort()).toEqual(['form.js', 'index.js', 'login.js', 'react.js']);
    expect(report!.gzipBytes).toBe(report!.chunks.reduce((sum, item) => sum + item.gzipBytes, 0));
    expect(report!.gzipBytes).toBeGreaterThan(100_000);
  });

  it('flags a route over its budget and prints by how much', () => {
    const [over] = measureRoutes(bundle, { '/login': { screen: 'src/login-screen.tsx', budgetKb: 100 } });
    expect(over!.overBudget).toBe(true);
    expect(formatRouteReport(over!)).toMatch(/^route \/login: [\d.]+ KB of gzipped JavaScript \(4 files, .* OVER its 100\.0 KB budget by [\d.]+ KB\)$/);
    const [under] = measureRoutes(bundle, { '/login': { screen: 'src/login-screen.tsx', budgetKb: 150 } });
    expect(under!.overBudget).toBe(false);
  });

  it('fails loudly when the screen has no chunk of its own', () => {
    expect(() => measureRoutes(bundle, { '/x': { screen: 'src/missing.tsx' } })).toThrow(/no chunk for src\/missing.tsx/);
  });
});

describe('route JavaScript report, modules loaded beside the screen', () => {
  it('counts a module the route loader imports beside the screen, and its imports', () => {
    const bundle = bundleOf(
      chunk('index.js', 1_000, [], { isEntry: true }),
      chunk('signup.js', 1_000, [], { facadeModuleId: '/app/src/signup-screen.tsx' }),
      chunk('query-boundary.js', 1_000, ['query-core.js'], { facadeModuleId: '/app/src/query-boundary.tsx' }),
      chunk('query-core.js', 5_000),
    );
    const [report] = measureRoutes(bundle, { '/signup': { screen: 'src/signup-screen.tsx', alsoLoads: ['src/query-boundary.tsx'] } });
    expect(report!.chunks.map((item) => item.fileName).sort()).toEqual(['index.js', 'query-boundary.js', 'query-core.js', 'signup.js']);
  });
});
