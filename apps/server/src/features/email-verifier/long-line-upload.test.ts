import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TTestApp } from '../../test/test-app';
import { LINE_TOO_LONG_MESSAGE, MAX_LINE_BYTES, readRows } from '../../platform/bulk/file-parsing';
import { buildMultipart } from './test-support';

// Issue 27 point 13: a 19 MB CSV on one line cost 22–63 s of server CPU per upload (Papa Parse parses the unfinished
// row again with every chunk it is given, so one line of n bytes costs about n² / chunk size). A line longer than
// MAX_LINE_BYTES is refused as soon as the reader passes that length, with a readable 400.

/** 19 MB of addresses separated by commas, no line break. */
function oneLineCsv(bytes = 19_000_000): Buffer {
  const cell = 'someone.with.a.long.name@example.test,';
  return Buffer.from(cell.repeat(Math.ceil(bytes / cell.length)).slice(0, bytes));
}

/** A stream of `content` in 64 KB chunks that counts what the reader pulled. */
function counted(content: Buffer): { stream: Readable; pulled: () => number } {
  let pulled = 0;
  async function* chunks() {
    for (let i = 0; i < content.length; i += 65_536) {
      const chunk = content.subarray(i, i + 65_536);
      pulled += chunk.length;
      yield chunk;
    }
  }
  return { stream: Readable.from(chunks()), pulled: () => pulled };
}

const MESSAGE = LINE_TOO_LONG_MESSAGE;

describe('a file with a very long line', () => {
  let t: TTestApp;
  let storageDir: string;
  let owner: { token: string };

  beforeAll(async () => {
    storageDir = await mkdtemp(join(tmpdir(), 'vl-longline-'));
    t = await createTestApp({ storageDir });
    owner = await t.createOwner('owner@long-line.test');
  });
  afterAll(async () => {
    await t?.close();
    await rm(storageDir, { recursive: true, force: true });
  });

  it('stops reading a CSV or TXT line past the limit: refused after reading about the limit, not the whole line', async () => {
    for (const type of ['csv', 'txt'] as const) {
      const file = counted(oneLineCsv());
      const rows = async () => {
        for await (const row of readRows(file.stream, type)) void row;
      };
      await expect(rows()).rejects.toThrow(MESSAGE);
      expect(file.pulled()).toBeLessThan(MAX_LINE_BYTES + 4 * 65_536);
    }
    // A long line under the limit is read as ever.
    const fine = 'email,note\n' + `a@x.test,${'n'.repeat(MAX_LINE_BYTES - 100)}\n`;
    const read: string[][] = [];
    for await (const row of readRows(Readable.from([Buffer.from(fine)]), 'csv')) read.push(row);
    expect(read.map((r) => r[0])).toEqual(['email', 'a@x.test']);
  });

  it('answers a 19 MB one-line CSV with a readable 400 on every upload route (the CPU each took is printed)', async () => {
    const content = oneLineCsv();
    const routes: { url: string; fields?: Record<string, string> }[] = [
      { url: '/api/v1/email_verify/bulk_upload/preview' },
      { url: '/api/v1/email_verify/bulk_upload' },
      { url: '/api/v1/email_finder/bulk_upload', fields: { full_name_column: '0', domain_column: '1' } },
    ];
    for (const route of routes) {
      const m = buildMultipart('one-line.csv', content, route.fields);
      const cpu = process.cpuUsage();
      const res = await t.call({ method: 'POST', url: route.url, token: owner.token, payload: m.payload, headers: m.headers });
      const used = process.cpuUsage(cpu);
      console.log(`${route.url}: ${Math.round((used.user + used.system) / 1000)} ms of CPU`);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error.message).toBe(MESSAGE);
    }
  });
});
