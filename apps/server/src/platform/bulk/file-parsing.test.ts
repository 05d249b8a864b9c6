import { createReadStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRows } from './file-parsing';

describe('readRows: a reader that stops early', () => {
  let dir = '';
  const files: Record<'txt' | 'csv', string> = { txt: '', csv: '' };
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rows-'));
    const lines = Array.from({ length: 20_000 }, (_, i) => `person${i}@example.test`);
    files.txt = join(dir, 'list.txt');
    files.csv = join(dir, 'list.csv');
    await writeFile(files.txt, lines.join('\n'));
    await writeFile(files.csv, ['email,name', ...lines.map((l, i) => `${l},Person ${i}`)].join('\n'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  // The upload preview reads 50 rows, then destroys the file's stream: the wrappers under the rows must end quietly
  // (before the fix, a wrapper nobody listened to any more emitted "Premature close" as an uncaught exception).
  for (const type of ['txt', 'csv'] as const) {
    it(`${type}: breaking out after 50 rows and destroying the source raises no error anywhere`, async () => {
      const uncaught: unknown[] = [];
      const onUncaught = (err: unknown) => uncaught.push(err);
      process.prependListener('uncaughtException', onUncaught);
      try {
        for (let round = 0; round < 20; round++) {
          const source = createReadStream(files[type], { highWaterMark: 1024 });
          let seen = 0;
          for await (const row of readRows(source, type)) {
            expect(row[0]).toMatch(/@example\.test$|^email$/);
            if (++seen === 50) break;
          }
          source.destroy();
          await new Promise<void>((resolve) => source.once('close', () => resolve()));
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        expect(uncaught).toEqual([]);
      } finally {
        process.off('uncaughtException', onUncaught);
      }
    });
  }
});
