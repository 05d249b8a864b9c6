import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { BULK_FILE_SIZE_LIMIT_BYTES } from '@verilead/contracts';
import { AppError } from '../errors/app-error';
import { findInvalidText, hasInvalidText, INVALID_TEXT_MESSAGE } from '../http/text-guard';
import type { TFileStorage } from '../storage/storage';

/** A multipart file part as routes hand it to services. */
export type TUploadPart = {
  filename: string;
  file: Readable & { truncated?: boolean };
  fields: Record<string, string>;
};

function throwTooLarge(): never {
  throw new AppError('payload_too_large', `The file is larger than ${BULK_FILE_SIZE_LIMIT_BYTES.toLocaleString('en-US')} bytes; please split it`);
}

/** Refuses a file name or form field holding text no database can keep (a NUL character or broken Unicode). */
function checkUploadText(part: TUploadPart): void {
  const field = hasInvalidText(part.filename) ? 'file' : findInvalidText(part.fields);
  if (field) {
    part.file.resume();
    throw new AppError('validation_failed', INVALID_TEXT_MESSAGE, { reasons: [{ field, location: 'body', messages: [INVALID_TEXT_MESSAGE] }] });
  }
}

/**
 * Streams an upload to storage under `key`, refusing anything over 20,000,000 bytes (nothing is kept then). Answers
 * the size and the SHA-256 of the bytes.
 */
export async function storeCappedUpload(
  storage: TFileStorage,
  key: string,
  part: TUploadPart,
  limit = BULK_FILE_SIZE_LIMIT_BYTES,
): Promise<{ size: number; sha256: string }> {
  checkUploadText(part);
  let size = 0;
  let tooLarge = false;
  const hash = createHash('sha256');
  async function* counted() {
    for await (const chunk of part.file) {
      size += (chunk as Buffer).length;
      hash.update(chunk as Buffer);
      if (size > limit) {
        tooLarge = true;
        throw new Error('too large');
      }
      yield chunk as Buffer;
    }
  }
  try {
    await storage.write(key, counted());
  } catch (err) {
    await storage.remove(key);
    if (tooLarge || part.file.truncated) {
      part.file.resume();
      throwTooLarge();
    }
    // The request body ended early or was malformed (the upload never completed).
    if (!part.file.readableEnded) throw new AppError('malformed_request', 'The upload was interrupted or is not a valid multipart/form-data request');
    throw err;
  }
  if (part.file.truncated) {
    await storage.remove(key);
    throwTooLarge();
  }
  return { size, sha256: hash.digest('hex') };
}

/** The first `bytes` of a stored file. */
export async function readStoredHead(storage: TFileStorage, key: string, bytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  const stream = storage.read(key);
  try {
    for await (const chunk of stream) {
      chunks.push(chunk as Buffer);
      total += (chunk as Buffer).length;
      if (total >= bytes) break;
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks).subarray(0, bytes);
}
