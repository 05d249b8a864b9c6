import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../errors/app-error';
import { httpStatusOf } from '../errors/http-status';
import { readRows } from '../bulk/file-parsing';
import { assertStorageKey, createDirectoryStorage, type TFileStorage } from './storage';

describe('directory storage', () => {
  let dir: string;
  let storage: TFileStorage;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vl-storage-'));
    storage = createDirectoryStorage(dir);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes, stats, reads and removes a file', async () => {
    const { size } = await storage.write('a/b/c.txt', Readable.from(['hello ', 'world']));
    expect(size).toBe(11);
    expect(await storage.stat('a/b/c.txt')).toEqual({ size: 11 });
    const chunks: Buffer[] = [];
    for await (const c of storage.read('a/b/c.txt')) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('hello world');
    await storage.remove('a/b/c.txt');
    expect(await storage.stat('a/b/c.txt')).toBeNull();
  });

  it("removes a folder and everything under it, leaving its neighbours, and refuses a path outside the root", async () => {
    await storage.write('uploads/org-1/a.csv', Readable.from(['a']));
    await storage.write('uploads/org-1/deep/b.csv', Readable.from(['b']));
    await storage.write('uploads/org-10/c.csv', Readable.from(['c']));
    expect(await storage.hasFolder('uploads/org-1')).toBe(true);
    await storage.removeFolder('uploads/org-1');
    expect(await storage.hasFolder('uploads/org-1')).toBe(false);
    expect(await storage.stat('uploads/org-1/deep/b.csv')).toBeNull();
    expect(await storage.stat('uploads/org-10/c.csv')).toEqual({ size: 1 });
    await storage.removeFolder('uploads/org-1'); // already gone: no error
    await expect(storage.removeFolder('../outside')).rejects.toThrow(/invalid storage key/);
  });

  it('answers a readable 404 for a file that is gone, for every type of list file (it once hung on CSV)', async () => {
    for (const fileType of ['csv', 'txt', 'xlsx'] as const) {
      const reading = (async () => {
        for await (const row of readRows(storage.read(`uploads/gone-${fileType}`), fileType)) void row;
      })();
      const err = await reading.then(
        () => null,
        (e: unknown) => e,
      );
      expect(err, fileType).toBeInstanceOf(AppError);
      expect(httpStatusOf(err as AppError)).toBe(404);
      expect((err as AppError).message).not.toContain(dir);
    }
  });

  it('leaves nothing behind when the source fails', async () => {
    async function* failing() {
      yield Buffer.from('partial');
      throw new Error('boom');
    }
    await expect(storage.write('x/broken.csv', failing())).rejects.toThrow('boom');
    expect(await storage.stat('x/broken.csv')).toBeNull();
  });

  it('refuses keys that escape the directory', () => {
    for (const bad of ['../etc/passwd', '/abs', 'a/../../b', 'a//b', '']) expect(() => assertStorageKey(bad)).toThrow();
    expect(() => assertStorageKey('uploads/org/file.csv')).not.toThrow();
  });
});
