import { BULK_FILE_SIZE_LIMIT_BYTES } from '@verilead/contracts';

/** File kinds the bulk upload takes. */
export const BULK_FILE_KINDS = ['csv', 'xlsx', 'txt'] as const;
export type TBulkFileKind = (typeof BULK_FILE_KINDS)[number];

/** MIME types offered to the drop zone (browsers report CSV and TXT loosely, so the extension decides). */
export const BULK_FILE_ACCEPT: Record<string, string[]> = {
  'text/csv': ['.csv'],
  'text/plain': ['.txt'],
  'application/vnd.ms-excel': ['.csv'],
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['.xlsx'],
};

/** The kind of a file by its extension, or null when the upload does not take it (`kinds` defaults to all). */
export function getBulkFileKind(name: string, kinds: readonly TBulkFileKind[] = BULK_FILE_KINDS): TBulkFileKind | null {
  const dot = name.lastIndexOf('.');
  if (dot < 0) return null;
  const extension = name.slice(dot + 1).toLowerCase();
  return (kinds as readonly string[]).includes(extension) ? (extension as TBulkFileKind) : null;
}

/** "CSV, XLSX or TXT" for a set of kinds. */
export function describeBulkFileKinds(kinds: readonly TBulkFileKind[]): string {
  const names = kinds.map((kind) => kind.toUpperCase());
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} or ${names[names.length - 1] ?? ''}`;
}

/** The drop zone's accept map for a set of kinds. */
export function getBulkFileAccept(kinds: readonly TBulkFileKind[]): Record<string, string[]> {
  const accept: Record<string, string[]> = {};
  for (const [mime, extensions] of Object.entries(BULK_FILE_ACCEPT)) {
    const kept = extensions.filter((extension) => (kinds as readonly string[]).includes(extension.slice(1)));
    if (kept.length > 0) accept[mime] = kept;
  }
  return accept;
}

/** A file size in decimal units, as the limit is stated: 20,000,000 bytes → "20 MB", 1,500 → "1.5 KB". */
export function formatFileSize(bytes: number): string {
  if (bytes < 1_000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${Number((bytes / 1_000).toFixed(1))} KB`;
  return `${Number((bytes / 1_000_000).toFixed(2))} MB`;
}

/**
 * Why a file cannot be uploaded, or null when it can: checked in the browser before any byte is
 * sent (the server checks again).
 */
export function checkBulkFile(file: { name: string; size: number }, kinds: readonly TBulkFileKind[] = BULK_FILE_KINDS): string | null {
  if (getBulkFileKind(file.name, kinds) === null) return `${file.name} is not a ${describeBulkFileKinds(kinds)} file. Save the list in one of these formats and try again.`;
  if (file.size === 0) return `${file.name} is empty. Choose a file with at least one row.`;
  if (file.size > BULK_FILE_SIZE_LIMIT_BYTES) {
    return `${file.name} is ${formatFileSize(file.size)} (${new Intl.NumberFormat('en-US').format(file.size)} bytes); the limit is ${formatFileSize(BULK_FILE_SIZE_LIMIT_BYTES)} (${new Intl.NumberFormat('en-US').format(BULK_FILE_SIZE_LIMIT_BYTES)} bytes). Split the list into smaller files.`;
  }
  return null;
}
