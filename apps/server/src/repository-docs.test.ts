import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const SKIP = new Set(['node_modules', '.git', 'data', 'dist', 'test-results', 'playwright-report']);
const TEXT = /\.(ts|tsx|mjs|js|json|md|yaml|yml|sh|css|html|tsv)$|^run$/;

function* repositoryFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name) || name === 'package-lock.json') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* repositoryFiles(path);
    else if (TEXT.test(name)) yield path;
  }
}

describe('the repository documents itself', () => {
  it('has its own architecture note, linked from the README', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme).toContain('](docs/ARCHITECTURE.md)');
    const note = readFileSync(join(ROOT, 'docs', 'ARCHITECTURE.md'), 'utf8');
    for (const heading of ['## Layout', 'What may import what', '## Stack', '## API conventions', '## Data, tenancy and the credits ledger', '## Jobs', '## The verification engine', '## The mail world', '## Security', '## Configuration']) {
      expect(note, heading).toContain(heading);
    }
    // Every folder the note's layout names exists.
    for (const folder of ['apps/web/', 'apps/server/', 'packages/contracts/', 'packages/verifier/', 'packages/mailworld/', 'e2e/', 'bench/', 'scripts/']) {
      expect(note, folder).toContain(folder);
      expect(existsSync(join(ROOT, folder)), folder).toBe(true);
    }
  });

  it('points to nothing outside the repository (no shared design folder next to it)', () => {
    const outside = ['..', 'shared', ''].join('/');
    const machine = ['', 'work', 'shared'].join('/');
    const offenders = [...repositoryFiles(ROOT)].filter((file) => {
      const text = readFileSync(file, 'utf8');
      return text.includes(outside) || text.includes(machine);
    });
    expect(offenders.map((file) => file.slice(ROOT.length + 1))).toEqual([]);
  });
});
