import Papa from 'papaparse';
import { detectCsvDelimiter } from '@verilead/contracts';
import { getBulkFileKind } from './bulk-file-rules';

/** Rows shown in the preview (the header row included). */
export const PREVIEW_ROW_COUNT = 8;
/** Bytes of a CSV or TXT file read for the preview. */
const PREVIEW_BYTES = 64 * 1024;

export type TFilePreview = { rows: string[][] };

function cellToText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : value.toISOString().slice(0, 10);
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}

/** Drops a trailing partial line when the text was cut at `PREVIEW_BYTES`. */
function keepWholeLines(text: string, wasCut: boolean): string {
  if (!wasCut) return text;
  const lastBreak = Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r'));
  return lastBreak > 0 ? text.slice(0, lastBreak) : text;
}

/** The first rows of CSV or TXT text (delimiter detected); throws when the text is binary. */
export function parseDelimitedPreview(text: string, limit = PREVIEW_ROW_COUNT): TFilePreview {
  if (text.includes('\u0000')) throw new Error('This file is not a text file. Upload a CSV, XLSX or TXT list.');
  const body = text.replace(/^\uFEFF/, '');
  // The same one-delimiter guess as the server's reader, so the preview shows the columns the upload will have.
  const parsed = Papa.parse<string[]>(body, { skipEmptyLines: 'greedy', delimiter: detectCsvDelimiter(body) });
  const rows = parsed.data.slice(0, limit).map((row) => row.map((cell) => cellToText(cell)));
  return { rows };
}

/** The first rows of a sheet read by the XLSX reader. */
export function toSheetPreview(data: readonly (readonly unknown[])[], limit = PREVIEW_ROW_COUNT): TFilePreview {
  const rows: string[][] = [];
  for (const row of data) {
    const cells = row.map((cell) => cellToText(cell));
    if (cells.every((cell) => cell === '')) continue;
    rows.push(cells);
    if (rows.length >= limit) break;
  }
  return { rows };
}

function readBlobText(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : '');
    reader.onerror = () => reject(new Error('The file could not be read.'));
    reader.readAsText(blob);
  });
}

/** Reads the first rows of a chosen file in the browser (nothing is uploaded). */
export async function readFilePreview(file: File): Promise<TFilePreview> {
  const kind = getBulkFileKind(file.name);
  if (kind === 'xlsx') {
    const { readSheet } = await import('read-excel-file/browser');
    try {
      return toSheetPreview(await readSheet(file));
    } catch {
      throw new Error('This XLSX file could not be read. Open it in a spreadsheet program, save it again as .xlsx and retry.');
    }
  }
  const text = keepWholeLines(await readBlobText(file.slice(0, PREVIEW_BYTES)), file.size > PREVIEW_BYTES);
  return parseDelimitedPreview(text);
}
