// Test support: builds XLSX (ZIP) files by hand, including malformed ones and zip bombs, with no library.
import { constants, crc32, deflateRawSync } from 'node:zlib';

/** One ZIP entry: plain bytes, or a part repeated `times` times (a bomb inflates it without ever holding it). */
export type TZipEntry = {
  name: string;
  data?: string | Buffer;
  /** A body made of head + middle × times + tail (the middle compressed once and repeated). */
  repeat?: { head: string; middle: string; times: number; tail: string };
  /** Declare this uncompressed size in the headers instead of the true one (a lying bomb). */
  declaredSize?: number;
};

function deflatePiece(data: Buffer, final: boolean): Buffer {
  // A full flush ends the piece on a byte boundary with a reset dictionary, so pieces can be concatenated.
  return deflateRawSync(data, { level: 9, finishFlush: final ? constants.Z_FINISH : constants.Z_FULL_FLUSH });
}

function compressEntry(entry: TZipEntry): { body: Buffer; crc: number; size: number } {
  if (entry.repeat) {
    const { head, middle, times, tail } = entry.repeat;
    const h = Buffer.from(head);
    const m = Buffer.from(middle);
    const t = Buffer.from(tail);
    const mPiece = deflatePiece(m, false);
    let crc = crc32(h);
    for (let i = 0; i < times; i++) crc = crc32(m, crc);
    crc = crc32(t, crc);
    const body = Buffer.concat([deflatePiece(h, false), ...Array<Buffer>(times).fill(mPiece), deflatePiece(t, true)]);
    return { body, crc, size: h.length + m.length * times + t.length };
  }
  const data = typeof entry.data === 'string' ? Buffer.from(entry.data) : (entry.data ?? Buffer.alloc(0));
  return { body: deflatePiece(data, true), crc: crc32(data), size: data.length };
}

/** A ZIP archive (deflate, no data descriptors) of the entries, in order. */
export function buildZip(entries: TZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const { body, crc, size } = compressEntry(entry);
    const declared = entry.declaredSize ?? size;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(declared, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc >>> 0, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(declared, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

const CONTENT_TYPES =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
  '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
  '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
  '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>';
const ROOT_RELS =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>';
const WORKBOOK =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" ' +
  'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>';
const WORKBOOK_RELS =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>' +
  '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>';

const SST_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">';

/** A sheet whose rows refer to shared strings by index (numbers) or hold inline strings: [[0, 'x']] → <c r="A1" t="s"><v>0</v></c>… */
export function sheetXml(rows: (number | string)[][], opts: { cellRefs?: boolean } = {}): string {
  const ref = (r: number, c: number) => (opts.cellRefs === false ? '' : ` r="${String.fromCharCode(65 + c)}${r + 1}"`);
  const body = rows
    .map(
      (cells, r) =>
        `<row r="${r + 1}">${cells.map((c, i) => (typeof c === 'number' ? `<c${ref(r, i)} t="s"><v>${c}</v></c>` : `<c${ref(r, i)} t="inlineStr"><is><t>${c}</t></is></c>`)).join('')}</row>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${body}</sheetData></worksheet>`;
}

export function sharedStringsXml(strings: string[]): string {
  return `${SST_HEAD}${strings.map((s) => `<si><t>${s}</t></si>`).join('')}</sst>`;
}

/** A workbook with the usual parts; `parts` replaces or adds parts (null leaves one out). Sheet before strings, as Excel writes. */
export function buildXlsx(parts: Partial<Record<string, string | TZipEntry | null>>): Buffer {
  const defaults: Record<string, string> = {
    '[Content_Types].xml': CONTENT_TYPES,
    '_rels/.rels': ROOT_RELS,
    'xl/workbook.xml': WORKBOOK,
    'xl/_rels/workbook.xml.rels': WORKBOOK_RELS,
    'xl/worksheets/sheet1.xml': sheetXml([[0], [1]]),
    'xl/sharedStrings.xml': sharedStringsXml(['email', 'a@strict.test']),
  };
  const names = [...new Set([...Object.keys(defaults), ...Object.keys(parts)])];
  const entries: TZipEntry[] = [];
  for (const name of names) {
    const part = name in parts ? parts[name] : defaults[name];
    if (part === null || part === undefined) continue;
    entries.push(typeof part === 'string' ? { name, data: part } : { ...part, name });
  }
  return buildZip(entries);
}

/** A shared-strings bomb: `megabytes` MB of strings that compress to a few hundred KB. */
export function buildSharedStringsBomb(megabytes: number, opts: { declaredSize?: number } = {}): Buffer {
  const one = `<si><t>${'A'.repeat(1000)}</t></si>`;
  const middle = one.repeat(Math.floor((1024 * 1024) / one.length)).padEnd(1024 * 1024, ' ');
  return buildXlsx({
    'xl/sharedStrings.xml': { name: 'xl/sharedStrings.xml', repeat: { head: SST_HEAD, middle, times: megabytes, tail: '</sst>' }, declaredSize: opts.declaredSize },
  });
}
