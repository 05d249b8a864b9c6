import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../errors/app-error';

/** Where uploads and prepared result files live. Keys are relative paths such as `uploads/<org>/<id>.csv`. */
export type TFileStorage = {
  /** Streams `source` into `key` (written to a temporary name first, then renamed). Answers the size in bytes. */
  write(key: string, source: Readable | AsyncIterable<Buffer | string>): Promise<{ size: number }>;
  /** A read stream of the file (throws when missing). */
  read(key: string): Readable;
  /** Size in bytes, or null when the file does not exist. */
  stat(key: string): Promise<{ size: number } | null>;
  /** Removes the file; missing files are ignored. */
  remove(key: string): Promise<void>;
  /** Removes a folder (a key prefix such as `uploads/<org>`) and everything under it; a missing folder is ignored. */
  removeFolder(prefix: string): Promise<void>;
  /** Whether anything is stored under the folder `prefix`. */
  hasFolder(prefix: string): Promise<boolean>;
};

const KEY_PATTERN = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*(\/[A-Za-z0-9_-][A-Za-z0-9_.-]*)*$/;

/** Throws unless `key` is a plain relative path with no `..` segments. */
export function assertStorageKey(key: string): void {
  if (!KEY_PATTERN.test(key) || key.split('/').some((s) => s === '..' || s === '.')) throw new Error(`invalid storage key: ${key}`);
}

/** The error of a read whose file is no longer stored. */
export function storedFileMissing(): AppError {
  return new AppError('not_found', 'This file is no longer available; upload it again or prepare a new download');
}

/** File storage in a directory (the default: STORAGE_DIR, or DATA_DIR/storage). */
export function createDirectoryStorage(rootDir: string): TFileStorage {
  const root = resolve(rootDir);
  const pathOf = (key: string): string => {
    assertStorageKey(key);
    const p = resolve(join(root, key));
    if (!p.startsWith(root + sep)) throw new Error(`invalid storage key: ${key}`);
    return p;
  };
  return {
    async write(key, source) {
      const target = pathOf(key);
      await mkdir(dirname(target), { recursive: true });
      const temp = `${target}.part-${process.pid}-${Date.now()}`;
      try {
        await pipeline(source, createWriteStream(temp));
        await rename(temp, target);
      } catch (err) {
        await rm(temp, { force: true });
        throw err;
      }
      const s = await stat(target);
      return { size: s.size };
    },
    read(key) {
      const stream = createReadStream(pathOf(key));
      // A stored file that has gone (expired, removed by hand) is the person's 404, never a crash or a path in a message.
      const emit = stream.emit.bind(stream);
      stream.emit = ((event: string | symbol, ...args: unknown[]) => {
        const err = args[0] as NodeJS.ErrnoException | undefined;
        if (event === 'error' && err?.code === 'ENOENT') return emit('error', storedFileMissing());
        return emit(event, ...args);
      }) as typeof stream.emit;
      return stream;
    },
    async stat(key) {
      try {
        const s = await stat(pathOf(key));
        return { size: s.size };
      } catch {
        return null;
      }
    },
    async remove(key) {
      await rm(pathOf(key), { force: true });
    },
    async removeFolder(prefix) {
      await rm(pathOf(prefix), { recursive: true, force: true });
    },
    async hasFolder(prefix) {
      try {
        return (await stat(pathOf(prefix))).isDirectory();
      } catch {
        return false;
      }
    },
  };
}

/**
 * The configured storage (a directory: STORAGE_DIR, or DATA_DIR/storage). The composition root builds the process's
 * one and hands it over in the dependency record.
 */
export function createStorage(config: { storageDir: string }): TFileStorage {
  return createDirectoryStorage(config.storageDir);
}
