// Generic bulk-file reading shared by the email verifier and the email finder (lifted from email-verifier).
import { createInterface } from 'node:readline';
import { pipeline, Readable } from 'node:stream';
import { parse as parseCsv } from 'csv-parse';
import { detectCsvDelimiter, type TUploadFileType } from '@verilead/contracts';
import { AppError } from '../errors/app-error';
import { readXlsxRows, XlsxReadError } from './xlsx-reader';

/** An operating-system error of the stream being read (not of its contents). */
function isSourceError(err: unknown): boolean {
  return typeof err === 'object' && err !== null && typeof (err as NodeJS.ErrnoException).syscall === 'string';
}

/** A file that cannot be read as an address list: answered as a 400 with this message. */
export class FileParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FileParseError';
  }
}

/** The upload's type from its name (.csv, .xlsx, .txt), or null. */
export function detectFileType(fileName: string): TUploadFileType | null {
  const m = /\.(csv|xlsx|txt)$/i.exec(fileName.trim());
  return m ? (m[1]!.toLowerCase() as TUploadFileType) : null;
}

/** Checks the first bytes: text files must be UTF-8 without NUL bytes; XLSX must be a ZIP container. */
export function checkFileHead(head: Buffer, fileType: TUploadFileType): void {
  if (head.length === 0) throw new FileParseError('The file is empty');
  if (fileType === 'xlsx') {
    if (!(head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04)) {
      throw new FileParseError('The file is not a valid XLSX workbook');
    }
    return;
  }
  if (head.includes(0)) throw new FileParseError('The file looks binary; please upload a CSV or TXT text file');
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
  } catch {
    throw new FileParseError('The file is not UTF-8 text; please save it as UTF-8 CSV or TXT');
  }
}

const CSV_SNIFF_BYTES = 64 * 1024;

/** Reads about `bytes` from the start of a stream, and answers them with a stream of the whole (head included). */
async function peekHead(source: Readable, bytes: number): Promise<{ head: Buffer; rest: Readable }> {
  const iterator: AsyncIterator<Buffer | string> = source[Symbol.asyncIterator]();
  const chunks: Buffer[] = [];
  let size = 0;
  let ended = false;
  try {
    while (size < bytes) {
      const next = await iterator.next();
      if (next.done) {
        ended = true;
        break;
      }
      const chunk = typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
      chunks.push(chunk);
      size += chunk.length;
    }
  } catch (err) {
    if (isSourceError(err)) throw new FileParseError('The file could not be read; please upload it again');
    throw err;
  }
  async function* whole(): AsyncGenerator<Buffer> {
    yield* chunks;
    if (ended) return;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
    }
  }
  return { head: Buffer.concat(chunks), rest: Readable.from(whole(), { objectMode: false }) };
}

/** Streams the rows of a file (every row as strings; the first worksheet of a workbook). Never loads the whole inflated file. */
export async function* readRows(source: Readable, fileType: TUploadFileType): AsyncGenerator<string[]> {
  if (fileType === 'txt') {
    const lines = createInterface({ input: source, crlfDelay: Infinity });
    let first = true;
    for await (const raw of lines) {
      const line = first ? raw.replace(/^\uFEFF/, '') : raw;
      first = false;
      yield [line];
    }
    return;
  }
  if (fileType === 'csv') {
    // One delimiter per file, guessed from its first 64 KB the way the browser preview guesses it.
    const { head, rest } = await peekHead(source, CSV_SNIFF_BYTES);
    const delimiter = detectCsvDelimiter(head.toString('utf8'));
    const parser = parseCsv({ bom: true, relax_column_count: true, relax_quotes: true, skip_empty_lines: true, max_record_size: 1_000_000, delimiter });
    // pipeline (not pipe) hands a failing source's error to the parser, so the loop below ends instead of waiting forever.
    let sourceError: unknown = null;
    pipeline(rest, parser, (err) => {
      if (err && !parser.readableEnded) sourceError = err;
    });
    try {
      for await (const record of parser) yield record as string[];
    } catch (err) {
      const cause = sourceError ?? err;
      if (cause instanceof AppError) throw cause;
      if (isSourceError(cause)) throw new FileParseError('The file could not be read; please upload it again');
      throw new FileParseError(`The CSV file could not be read: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      parser.destroy();
    }
    return;
  }
  // A bounded streaming reader: limits on inflated size, rows, cells and shared strings (zip bombs are refused).
  try {
    yield* readXlsxRows(source);
  } catch (err) {
    if (err instanceof XlsxReadError) throw new FileParseError(err.message);
    throw err;
  }
}
