// Generic bulk-file reading shared by the email verifier and the email finder (lifted from email-verifier).
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import Papa from 'papaparse';
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

/**
 * The longest line a CSV or TXT upload may have, in bytes: far beyond any real row, and the reader stops there. Papa
 * Parse parses a row that is not finished again with every chunk it is given, so one line of n bytes costs about
 * n² / chunk size: a 19 MB file on one line took seconds to tens of seconds of CPU, and every other request waited.
 */
export const MAX_LINE_BYTES = 65_536;

export const LINE_TOO_LONG_MESSAGE = `A line of the file is longer than ${MAX_LINE_BYTES.toLocaleString('en-US')} bytes; no real row is that long. Please check the file is a CSV or TXT list with one row per line`;

/** Passes a text file through, refusing it (FileParseError) as soon as a line runs past MAX_LINE_BYTES. */
function limitLineLength(source: Readable): Readable {
  async function* guarded(): AsyncGenerator<Buffer> {
    try {
      yield* scan();
    } catch (err) {
      // The reader stopped early and its owner destroyed the file's stream (the preview reads 50 rows): the end, not an
      // error. Rethrown, it would reach this wrapper after its reader had stopped listening: an uncaught exception.
      if (source.destroyed && (err as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE') return;
      throw err;
    }
  }
  async function* scan(): AsyncGenerator<Buffer> {
    let run = 0;
    for await (const raw of source) {
      const chunk = typeof raw === 'string' ? Buffer.from(raw) : (raw as Buffer);
      let start = 0;
      let lf = chunk.indexOf(0x0a);
      let cr = chunk.indexOf(0x0d);
      for (;;) {
        const brk = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
        run += (brk === -1 ? chunk.length : brk) - start;
        if (run > MAX_LINE_BYTES) {
          source.destroy();
          throw new FileParseError(LINE_TOO_LONG_MESSAGE);
        }
        if (brk === -1) break;
        run = 0;
        start = brk + 1;
        if (lf === brk) lf = chunk.indexOf(0x0a, start);
        if (cr === brk) cr = chunk.indexOf(0x0d, start);
      }
      yield chunk;
    }
  }
  return Readable.from(guarded(), { objectMode: false });
}

/** Streams the rows of a file (every row as strings; the first worksheet of a workbook). Never loads the whole inflated file. */
export async function* readRows(source: Readable, fileType: TUploadFileType): AsyncGenerator<string[]> {
  for await (const rows of readRowBatches(source, fileType)) yield* rows;
}

const TXT_BATCH = 2_000;

/**
 * Streams the rows of a file in batches (every row as strings; the first worksheet of a workbook): one await per
 * batch instead of one per row, for the analysis of files with a million rows. Never loads the whole inflated file.
 */
export async function* readRowBatches(source: Readable, fileType: TUploadFileType): AsyncGenerator<string[][]> {
  if (fileType === 'txt') {
    const input = limitLineLength(source);
    const lines = createInterface({ input, crlfDelay: Infinity });
    try {
      let first = true;
      let batch: string[][] = [];
      for await (const raw of lines) {
        const line = first ? raw.replace(/^\uFEFF/, '') : raw;
        first = false;
        batch.push([line]);
        if (batch.length >= TXT_BATCH) {
          yield batch;
          batch = [];
        }
      }
      if (batch.length > 0) yield batch;
      return;
    } finally {
      // readline only pauses its input when it closes: the wrapper is ended here so that it stops reading the file.
      input.destroy();
    }
  }
  if (fileType === 'csv') {
    // One delimiter per file, guessed from its first 64 KB the way the browser preview guesses it.
    const { head, rest } = await peekHead(limitLineLength(source), CSV_SNIFF_BYTES);
    yield* readCsvBatches(rest, detectCsvDelimiter(head.toString('utf8')));
    return;
  }
  // A bounded streaming reader: limits on inflated size, rows, cells and shared strings (zip bombs are refused).
  try {
    let batch: string[][] = [];
    for await (const row of readXlsxRows(source)) {
      batch.push(row);
      if (batch.length >= TXT_BATCH) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length > 0) yield batch;
  } catch (err) {
    if (err instanceof XlsxReadError) throw new FileParseError(err.message);
    throw err;
  }
}

/** Batches parsed ahead of the reader at most (the parser pauses the file beyond that). */
const CSV_BATCHES_AHEAD = 4;

/**
 * A CSV file's rows, as Papa Parse reads them (the parser the browser preview uses, so both read a file alike):
 * lenient about quotes and column counts, blank lines skipped, a byte-order mark dropped. The file is decoded as
 * UTF-8 across chunk boundaries; each chunk's rows come as one batch, and the file is paused while the reader is
 * behind.
 */
async function* readCsvBatches(source: Readable, delimiter: string): AsyncGenerator<string[][]> {
  const ready: string[][][] = [];
  let finished = false;
  let failure: unknown = null;
  let paused = null as Papa.Parser | null;
  let wake: (() => void) | null = null;
  const signal = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  source.setEncoding('utf8');
  Papa.parse<string[]>(source, {
    delimiter,
    skipEmptyLines: 'greedy',
    beforeFirstChunk: (chunk) => chunk.replace(/^\uFEFF/, ''),
    chunk: (results: Papa.ParseResult<string[]>, parser: Papa.Parser) => {
      ready.push(results.data);
      if (ready.length >= CSV_BATCHES_AHEAD) {
        paused = parser;
        parser.pause();
      }
      signal();
    },
    complete: () => {
      finished = true;
      signal();
    },
    error: (err: unknown) => {
      failure = err;
      finished = true;
      signal();
    },
  });
  try {
    for (;;) {
      const batch = ready.shift();
      if (batch) {
        if (paused && ready.length < CSV_BATCHES_AHEAD / 2) {
          const parser = paused;
          paused = null;
          parser.resume();
        }
        yield batch;
        continue;
      }
      if (failure) {
        if (failure instanceof AppError || failure instanceof FileParseError) throw failure;
        if (isSourceError(failure)) throw new FileParseError('The file could not be read; please upload it again');
        throw new FileParseError(`The CSV file could not be read: ${failure instanceof Error ? failure.message : String(failure)}`);
      }
      if (finished) return;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    if (!finished) source.destroy();
  }
}
