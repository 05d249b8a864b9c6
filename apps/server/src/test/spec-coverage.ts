import { readFileSync } from 'node:fs';

/** One call of the product spec's calls table: its area, HTTP method and path (without the /api/v1 prefix). */
export type TSpecCall = { area: string; method: string; path: string };

const FIXTURE = new URL('./spec-calls.tsv', import.meta.url);

/** The spec's calls of `areas`, from the copy of its calls table kept beside this module (`spec-calls.tsv`). */
export function readSpecCalls(areas: readonly string[]): TSpecCall[] {
  const rows = readFileSync(FIXTURE, 'utf8')
    .split('\n')
    .filter((line) => line.trim() && !line.startsWith('#'))
    .slice(1)
    .map((line) => {
      const [area = '', method = '', path = ''] = line.split('\t');
      return { area, method, path };
    });
  for (const area of areas) {
    // An area with no rows would check nothing: a misspelt or uncopied area fails instead.
    if (!rows.some((r) => r.area === area)) throw new Error(`spec-calls.tsv has no calls of the area "${area}"`);
  }
  return rows.filter((r) => areas.includes(r.area));
}

/** "/apps/{id}" and "/apps/:appId" are the same call: paths are compared with their parameters blanked out. */
function shape(path: string): string {
  return path.replace(/\{[^}]+\}|:[A-Za-z_]\w*/g, '{}').replace(/\/+$/, '');
}

/**
 * The spec calls of `areas` the server's OpenAPI document (`paths`) does not serve, as "METHOD /api/v1/path" lines:
 * the same comparison as the spec-coverage tool, so an empty list is its "0 missing".
 */
export function findMissingSpecCalls(paths: Record<string, object>, areas: readonly string[], prefix = '/api/v1'): string[] {
  const served = new Set<string>();
  for (const [path, operations] of Object.entries(paths)) {
    for (const method of Object.keys(operations)) served.add(`${method.toUpperCase()} ${shape(path)}`);
  }
  return readSpecCalls(areas)
    .filter((call) => !served.has(`${call.method} ${shape(prefix + call.path)}`))
    .map((call) => `${call.method} ${prefix}${call.path}`);
}
