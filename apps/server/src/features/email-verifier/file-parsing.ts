import { detectEmailColumn, isEmailLike, type TUploadFileType, type TUploadPreviewData } from '@verilead/contracts';
import { parseAddress } from '@verilead/verifier';
import { FileParseError } from '../../platform/bulk/file-parsing';

// The generic pieces (file type, head check, streaming row reader) live in platform/bulk and are shared with the email finder.
export { checkFileHead, detectFileType, FileParseError, readRowBatches, readRows } from '../../platform/bulk/file-parsing';

/** True when the cell holds something shaped like an address (the full syntax check comes later). */
export function looksLikeEmail(cell: string): boolean {
  const v = cell.trim();
  return v.length >= 3 && v.length <= 320 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v) && parseAddress(v).ok;
}

const PREVIEW_ROWS = 10;
const SAMPLE_ROWS = 50;

/**
 * Reads the first rows of a file: header detection and the e-mail column (contracts' detectEmailColumn, as the
 * browser's preview reads them), and a preview. Throws FileParseError for empty files or files with no addresses.
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
  // The same reading as the browser's preview (contracts): header row, then the e-mail column.
  const guess = detectEmailColumn(sample, opts.hasHeader);
  const hasHeader = guess.hasHeader;
  const dataRows = hasHeader ? sample.slice(1) : sample;
  const width = guess.columns.length;
  const detected = guess.columnIndex;
  const chosen = opts.emailColumn;
  if (chosen !== undefined) {
    if (chosen >= width) throw new FileParseError(`Column ${chosen + 1} does not exist: the file has ${width} column(s)`);
    if (!dataRows.some((r) => looksLikeEmail(r[chosen] ?? ''))) throw new FileParseError(`Column ${chosen + 1} holds no email addresses`);
  } else if (detected === null || !dataRows.some((r) => isEmailLike(r[detected]))) {
    throw new FileParseError(dataRows.length === 0 ? 'The file has a header but no data rows' : 'No column with email addresses was found in the file');
  }
  const columns = guess.columns.map((c) => c.label);
  return {
    file_name: opts.fileName,
    file_type: opts.fileType,
    has_header: hasHeader,
    columns,
    email_column: opts.emailColumn ?? detected,
    rows: dataRows.slice(0, PREVIEW_ROWS).map((r) => Array.from({ length: width }, (_, i) => r[i] ?? '')),
  };
}
