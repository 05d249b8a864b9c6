import type { TUploadFileType, TUploadPreviewData } from '@verilead/contracts';
import { parseAddress } from '@verilead/verifier';
import { FileParseError } from '../../platform/bulk/file-parsing';

// The generic pieces (file type, head check, streaming row reader) live in platform/bulk and are shared with the email finder.
export { checkFileHead, detectFileType, FileParseError, readRows } from '../../platform/bulk/file-parsing';

/** True when the cell holds something shaped like an address (the full syntax check comes later). */
export function looksLikeEmail(cell: string): boolean {
  const v = cell.trim();
  return v.length >= 3 && v.length <= 320 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v) && parseAddress(v).ok;
}

const PREVIEW_ROWS = 10;
const SAMPLE_ROWS = 50;

/**
 * Reads the first rows of a file: header detection, the e-mail column (the one with most address-shaped cells),
 * and a preview. Throws FileParseError for empty files or files with no addresses.
 */
export async function inspectRows(
  rows: AsyncIterable<string[]>,
  opts: { fileName: string; fileType: TUploadFileType; emailColumn?: number; hasHeader?: boolean },
): Promise<TUploadPreviewData> {
  const sample: string[][] = [];
  for await (const row of rows) {
    if (row.every((c) => c.trim() === '')) continue;
    sample.push(row);
    if (sample.length > SAMPLE_ROWS) break;
  }
  if (sample.length === 0) throw new FileParseError('The file has no rows');
  const first = sample[0]!;
  const hasHeader = opts.hasHeader ?? (!first.some(looksLikeEmail) && sample.slice(1).some((r) => r.some(looksLikeEmail)));
  const dataRows = hasHeader ? sample.slice(1) : sample;
  const width = Math.max(...sample.map((r) => r.length));
  const hits = Array.from({ length: width }, (_, i) => dataRows.filter((r) => looksLikeEmail(r[i] ?? '')).length);
  const best = hits.reduce((b, n, i) => (n > (hits[b] ?? 0) ? i : b), 0);
  const detected = (hits[best] ?? 0) > 0 ? best : null;
  if (opts.emailColumn !== undefined) {
    if (opts.emailColumn >= width) throw new FileParseError(`Column ${opts.emailColumn + 1} does not exist: the file has ${width} column(s)`);
    if ((hits[opts.emailColumn] ?? 0) === 0) throw new FileParseError(`Column ${opts.emailColumn + 1} holds no email addresses`);
  } else if (detected === null) {
    throw new FileParseError(dataRows.length === 0 ? 'The file has a header but no data rows' : 'No column with email addresses was found in the file');
  }
  const columns = Array.from({ length: width }, (_, i) => (hasHeader ? (first[i] ?? '').trim() || `Column ${i + 1}` : `Column ${i + 1}`));
  return {
    file_name: opts.fileName,
    file_type: opts.fileType,
    has_header: hasHeader,
    columns,
    email_column: opts.emailColumn ?? detected,
    rows: dataRows.slice(0, PREVIEW_ROWS).map((r) => Array.from({ length: width }, (_, i) => r[i] ?? '')),
  };
}
