// A bounded XLSX reader: the workbook's ZIP directory is read from the (size-capped) upload, every part it
// needs is inflated as a stream and parsed with a SAX parser, and limits on inflated bytes, rows, cells and
// the shared-string table are enforced while inflating, so a zip bomb is refused before it costs memory.
import { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { createInflateRaw } from 'node:zlib';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { BULK_FILE_SIZE_LIMIT_BYTES } from '@verilead/contracts';

/** A workbook that cannot be read; the message is written for the person who uploaded it. */
export class XlsxReadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'XlsxReadError';
  }
}

export type TXlsxLimits = {
  /** Compressed size of the workbook. */
  maxFileBytes: number;
  /** Inflated size of any one part (and of the shared-string part, the one held in memory). */
  maxPartBytes: number;
  maxSharedStringsPartBytes: number;
  /** Inflated bytes of all parts read together. */
  maxTotalBytes: number;
  maxSharedStrings: number;
  maxSharedStringChars: number;
  maxRows: number;
  maxColumns: number;
  maxCells: number;
  /** Bytes of one text or tag (no cell in Excel holds more than 32,767 characters). */
  maxTextBytes: number;
};

const MB = 1024 * 1024;

export const XLSX_LIMITS: TXlsxLimits = {
  maxFileBytes: BULK_FILE_SIZE_LIMIT_BYTES,
  maxPartBytes: 400 * MB,
  maxSharedStringsPartBytes: 100 * MB,
  maxTotalBytes: 500 * MB,
  maxSharedStrings: 1_000_000,
  maxSharedStringChars: 32_000_000,
  maxRows: 1_048_576,
  maxColumns: 16_384,
  maxCells: 10_000_000,
  maxTextBytes: 512 * 1024,
};

const SPLIT_HINT = 'please split it or save it as CSV';

function tooLarge(what: string): XlsxReadError {
  return new XlsxReadError(`The XLSX workbook is too large to read: ${what}; ${SPLIT_HINT}`);
}

function damaged(what: string): XlsxReadError {
  return new XlsxReadError(`The XLSX workbook is damaged (${what}); please open it in your spreadsheet program and save it again`);
}

/** Reads the whole (compressed) upload, refusing more than `max` bytes. */
function readCompressed(source: Readable, max: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    source.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        source.destroy();
        reject(new XlsxReadError(`The file is larger than ${max.toLocaleString('en-US')} bytes; please split it`));
        return;
      }
      chunks.push(chunk);
    });
    source.on('end', () => resolve(Buffer.concat(chunks)));
    source.on('error', reject);
  });
}

type TEntry = { name: string; method: number; flags: number; compressedSize: number; size: number; localOffset: number };

/** The ZIP central directory: every entry by normalised name. */
function readDirectory(zip: Buffer): Map<string, TEntry> {
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (zip.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw damaged('it is not a complete ZIP archive');
  const count = zip.readUInt16LE(eocd + 10);
  const dirOffset = zip.readUInt32LE(eocd + 16);
  if (count === 0xffff || dirOffset === 0xffffffff) throw tooLarge('it uses the ZIP64 format');
  const entries = new Map<string, TEntry>();
  let p = dirOffset;
  for (let i = 0; i < count; i++) {
    if (p + 46 > zip.length || zip.readUInt32LE(p) !== 0x02014b50) throw damaged('its ZIP directory is broken');
    const nameLength = zip.readUInt16LE(p + 28);
    const extraLength = zip.readUInt16LE(p + 30);
    const commentLength = zip.readUInt16LE(p + 32);
    const name = zip
      .subarray(p + 46, p + 46 + nameLength)
      .toString('utf8')
      .replace(/\\/g, '/')
      .replace(/^\/+/, '');
    const entry: TEntry = {
      name,
      flags: zip.readUInt16LE(p + 8),
      method: zip.readUInt16LE(p + 10),
      compressedSize: zip.readUInt32LE(p + 20),
      size: zip.readUInt32LE(p + 24),
      localOffset: zip.readUInt32LE(p + 42),
    };
    if (entry.size === 0xffffffff || entry.compressedSize === 0xffffffff) throw tooLarge('it uses the ZIP64 format');
    entries.set(name.toLowerCase(), entry);
    p += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

type TBudget = { total: number };

/** Inflates one entry as a stream of chunks, counting every inflated byte against the limits. */
async function* inflateEntry(zip: Buffer, entry: TEntry, maxBytes: number, budget: TBudget, limits: TXlsxLimits): AsyncGenerator<Buffer> {
  if (entry.flags & 1) throw new XlsxReadError('The XLSX workbook is password-protected; please remove the password and upload it again');
  if (entry.size > maxBytes) throw tooLarge(`${entry.name} expands to more than ${Math.round(maxBytes / MB)} MB`);
  const p = entry.localOffset;
  if (p + 30 > zip.length || zip.readUInt32LE(p) !== 0x04034b50) throw damaged(`${entry.name} cannot be found`);
  const start = p + 30 + zip.readUInt16LE(p + 26) + zip.readUInt16LE(p + 28);
  const end = start + entry.compressedSize;
  if (end > zip.length) throw damaged(`${entry.name} is cut short`);
  const compressed = zip.subarray(start, end);
  if (entry.method !== 0 && entry.method !== 8) throw damaged(`${entry.name} uses an unsupported compression method`);
  const chunks: Readable =
    entry.method === 0 ? Readable.from(slices(compressed), { objectMode: false }) : Readable.from([compressed], { objectMode: false }).pipe(createInflateRaw());
  let produced = 0;
  try {
    for await (const chunk of chunks) {
      produced += chunk.length;
      budget.total += chunk.length;
      // A part that inflates beyond the size it declares is a lying zip bomb: stop at once.
      if (produced > entry.size) throw damaged(`${entry.name} holds more data than it declares`);
      if (budget.total > limits.maxTotalBytes) throw tooLarge(`it expands to more than ${Math.round(limits.maxTotalBytes / MB)} MB`);
      yield chunk;
    }
  } catch (err) {
    if (err instanceof XlsxReadError) throw err;
    throw damaged(`${entry.name} cannot be decompressed`);
  } finally {
    chunks.destroy();
  }
}

function* slices(data: Buffer): Generator<Buffer> {
  for (let i = 0; i < data.length; i += 65_536) yield data.subarray(i, i + 65_536);
}

async function drain(ticks: AsyncIterable<void>): Promise<void> {
  for await (const tick of ticks) void tick;
}

function localName(name: string): string {
  const i = name.indexOf(':');
  return i < 0 ? name : name.slice(i + 1);
}

type THandlers = {
  open?: (name: string, attributes: Record<string, string>) => void;
  close?: (name: string) => void;
  text?: (text: string) => void;
};

/**
 * Feeds inflated chunks to a SAX parser, yielding after every chunk so callers can hand out what it produced.
 * No text or tag may grow beyond maxTextBytes (the parser would otherwise hold it whole).
 */
async function* parseXml(chunks: AsyncIterable<Buffer>, part: string, handlers: THandlers, limits: TXlsxLimits): AsyncGenerator<void> {
  const parser = new SaxesParser({ xmlns: false, position: false });
  let sinceMarkup = 0;
  parser.on('opentag', (tag: SaxesTagPlain) => {
    sinceMarkup = 0;
    handlers.open?.(localName(tag.name), tag.attributes as Record<string, string>);
  });
  parser.on('closetag', (tag: SaxesTagPlain) => {
    sinceMarkup = 0;
    handlers.close?.(localName(tag.name));
  });
  if (handlers.text) {
    const onText = handlers.text;
    parser.on('text', (t: string) => {
      sinceMarkup = 0;
      onText(t);
    });
    parser.on('cdata', (t: string) => {
      sinceMarkup = 0;
      onText(t);
    });
  }
  parser.on('error', (err: Error) => {
    throw err;
  });
  const decoder = new StringDecoder('utf8');
  try {
    for await (const chunk of chunks) {
      sinceMarkup += chunk.length;
      parser.write(decoder.write(chunk));
      if (sinceMarkup > limits.maxTextBytes) throw tooLarge(`${part} holds a text longer than any spreadsheet cell`);
      yield;
    }
    parser.write(decoder.end());
    parser.close();
  } catch (err) {
    if (err instanceof XlsxReadError) throw err;
    throw damaged(`${part} is not well-formed XML`);
  }
}

/** Resolves a relationship target against the directory of the part that declares it. */
function resolveTarget(fromPart: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const parts = fromPart.split('/').slice(0, -1);
  for (const piece of target.split('/')) {
    if (piece === '..') parts.pop();
    else if (piece !== '.' && piece !== '') parts.push(piece);
  }
  return parts.join('/');
}

function relsPathOf(part: string): string {
  const i = part.lastIndexOf('/');
  return `${part.slice(0, i + 1)}_rels/${part.slice(i + 1)}.rels`;
}

type TRel = { id: string; type: string; target: string };

async function readRels(zip: Buffer, dir: Map<string, TEntry>, part: string, budget: TBudget, limits: TXlsxLimits): Promise<TRel[]> {
  const entry = dir.get(relsPathOf(part).toLowerCase());
  if (!entry) return [];
  const rels: TRel[] = [];
  const handlers: THandlers = {
    open: (name, a) => {
      if (name === 'Relationship' && a.Target && rels.length < 10_000) rels.push({ id: a.Id ?? '', type: a.Type ?? '', target: resolveTarget(part, a.Target) });
    },
  };
  await drain(parseXml(inflateEntry(zip, entry, limits.maxPartBytes, budget, limits), relsPathOf(part), handlers, limits));
  return rels;
}

/** The first worksheet's part and the shared-string part of the workbook. */
async function locateParts(zip: Buffer, dir: Map<string, TEntry>, budget: TBudget, limits: TXlsxLimits): Promise<{ sheet: TEntry; sharedStrings: TEntry | null }> {
  const rootRels = await readRels(zip, dir, '', budget, limits);
  const workbookPath = rootRels.find((r) => r.type.endsWith('/officeDocument'))?.target ?? 'xl/workbook.xml';
  const workbook = dir.get(workbookPath.toLowerCase());
  if (!workbook) throw new XlsxReadError('The file is not a valid XLSX workbook (it has no workbook part); please save it from your spreadsheet program as .xlsx');
  let firstSheetId: string | null = null;
  const handlers: THandlers = {
    open: (name, a) => {
      if (name !== 'sheet' || firstSheetId !== null) return;
      const key = Object.keys(a).find((k) => k === 'id' || k.endsWith(':id'));
      firstSheetId = key ? (a[key] ?? '') : '';
    },
  };
  await drain(parseXml(inflateEntry(zip, workbook, limits.maxPartBytes, budget, limits), workbookPath, handlers, limits));
  const rels = await readRels(zip, dir, workbookPath, budget, limits);
  const sheetRel = rels.find((r) => r.id === firstSheetId) ?? rels.find((r) => r.type.endsWith('/worksheet'));
  const sheet = (sheetRel && dir.get(sheetRel.target.toLowerCase())) ?? dir.get(resolveTarget(workbookPath, 'worksheets/sheet1.xml').toLowerCase());
  if (!sheet) throw new XlsxReadError('The XLSX workbook has no worksheet');
  const stringsRel = rels.find((r) => r.type.endsWith('/sharedStrings'));
  const sharedStrings = dir.get((stringsRel?.target ?? resolveTarget(workbookPath, 'sharedStrings.xml')).toLowerCase()) ?? null;
  return { sheet, sharedStrings };
}

/** The shared-string table, refused past its count, character and inflated-size limits. */
async function readSharedStrings(zip: Buffer, entry: TEntry, budget: TBudget, limits: TXlsxLimits): Promise<string[]> {
  const strings: string[] = [];
  let chars = 0;
  let current: string[] | null = null;
  let inText = false;
  let phonetic = 0;
  const handlers: THandlers = {
    open: (name) => {
      if (name === 'si') {
        current = [];
        if (strings.length >= limits.maxSharedStrings) throw tooLarge(`it holds more than ${limits.maxSharedStrings.toLocaleString('en-US')} distinct texts`);
      } else if (name === 'rPh') phonetic += 1;
      else if (name === 't') inText = true;
    },
    close: (name) => {
      if (name === 'si' && current) {
        strings.push(current.join(''));
        current = null;
      } else if (name === 'rPh') phonetic -= 1;
      else if (name === 't') inText = false;
    },
    text: (t) => {
      if (!current || !inText || phonetic > 0) return;
      chars += t.length;
      if (chars > limits.maxSharedStringChars) throw tooLarge(`its texts hold more than ${limits.maxSharedStringChars.toLocaleString('en-US')} characters`);
      current.push(t);
    },
  };
  await drain(parseXml(inflateEntry(zip, entry, limits.maxSharedStringsPartBytes, budget, limits), entry.name, handlers, limits));
  return strings;
}

/** Column index (0-based) of a cell reference such as "AB12", or null. */
function columnOf(ref: string | undefined): number | null {
  const m = ref ? /^([A-Za-z]{1,3})\d*$/.exec(ref) : null;
  if (!m) return null;
  let n = 0;
  for (const ch of m[1]!.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

function cellText(type: string | undefined, raw: string, inline: string, strings: string[], ref: string): string {
  switch (type) {
    case 's': {
      const index = Number(raw.trim());
      const value = Number.isInteger(index) ? strings[index] : undefined;
      if (value === undefined) throw damaged(`cell ${ref} refers to a text that does not exist`);
      return value;
    }
    case 'inlineStr':
      return inline;
    case 'b':
      return raw.trim() === '1' ? 'true' : 'false';
    case 'e':
      return '';
    case 'str':
    case 'd':
      return raw;
    default: {
      const n = Number(raw);
      return raw.trim() !== '' && Number.isFinite(n) ? String(n) : raw;
    }
  }
}

/** Streams the rows of the workbook's first worksheet (every row as strings), within `limits`. */
export async function* readXlsxRows(source: Readable, limits: TXlsxLimits = XLSX_LIMITS): AsyncGenerator<string[]> {
  const zip = await readCompressed(source, limits.maxFileBytes);
  const dir = readDirectory(zip);
  const budget: TBudget = { total: 0 };
  const { sheet, sharedStrings } = await locateParts(zip, dir, budget, limits);
  const strings = sharedStrings ? await readSharedStrings(zip, sharedStrings, budget, limits) : [];

  const ready: string[][] = [];
  let rows = 0;
  let cells = 0;
  let row: string[] | null = null;
  let cell: { type: string | undefined; ref: string; column: number; raw: string[]; inline: string[] } | null = null;
  let inValue = false;
  let inInline = false;
  let inInlineText = false;
  let phonetic = 0;
  const handlers: THandlers = {
    open: (name, a) => {
      if (name === 'row') {
        rows += 1;
        if (rows > limits.maxRows) throw tooLarge(`its first sheet has more than ${limits.maxRows.toLocaleString('en-US')} rows`);
        row = [];
      } else if (name === 'c' && row) {
        cells += 1;
        if (cells > limits.maxCells) throw tooLarge(`its first sheet has more than ${limits.maxCells.toLocaleString('en-US')} cells`);
        const column = columnOf(a.r) ?? row.length;
        if (column >= limits.maxColumns) throw tooLarge(`its first sheet has more than ${limits.maxColumns.toLocaleString('en-US')} columns`);
        cell = { type: a.t, ref: a.r ?? `#${cells}`, column, raw: [], inline: [] };
      } else if (name === 'v' && cell) inValue = true;
      else if (name === 'is' && cell) inInline = true;
      else if (name === 'rPh') phonetic += 1;
      else if (name === 't' && inInline) inInlineText = true;
    },
    close: (name) => {
      if (name === 'row' && row) {
        ready.push(row);
        row = null;
      } else if (name === 'c' && cell && row) {
        const value = cellText(cell.type, cell.raw.join(''), cell.inline.join(''), strings, cell.ref);
        while (row.length < cell.column) row.push('');
        row[cell.column] = value;
        cell = null;
      } else if (name === 'v') inValue = false;
      else if (name === 'is') inInline = false;
      else if (name === 'rPh') phonetic -= 1;
      else if (name === 't') inInlineText = false;
    },
    text: (t) => {
      if (!cell) return;
      if (inValue) cell.raw.push(t);
      else if (inInlineText && phonetic === 0) cell.inline.push(t);
    },
  };
  for await (const tick of parseXml(inflateEntry(zip, sheet, limits.maxPartBytes, budget, limits), sheet.name, handlers, limits)) {
    void tick;
    yield* ready.splice(0);
  }
  yield* ready.splice(0);
}
