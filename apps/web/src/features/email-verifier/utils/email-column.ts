/** Finding the e-mail column of an uploaded sheet, from its first rows (parsed in the browser). */

const EMAIL_PATTERN = /^[^\s@",;<>]+@[^\s@",;<>]+\.[^\s@",;<>]+$/;
const EMAIL_HEADER = /e[\s_-]?mail|^mail$/i;
const EXACT_EMAIL_HEADER = /^e[\s_-]?mail([\s_-]?address)?$/i;

export type TSheetColumn = { index: number; label: string };
export type TEmailColumnGuess = {
  /** True when the first row names the columns instead of holding data. */
  hasHeader: boolean;
  /** The column holding the addresses, or null when no column looks like one. */
  columnIndex: number | null;
  columns: TSheetColumn[];
};

/** True for a cell that looks like one e-mail address. */
export function isEmailLike(value: string | undefined): boolean {
  return value !== undefined && EMAIL_PATTERN.test(value.trim());
}

function countEmails(rows: readonly (readonly string[])[], index: number): number {
  let count = 0;
  for (const row of rows) if (isEmailLike(row[index])) count += 1;
  return count;
}

/**
 * Guesses the header row and the e-mail column: a header cell named like "Email" wins when its
 * column holds addresses (or there is no data yet); otherwise the column with the most addresses.
 */
export function detectEmailColumn(rows: readonly (readonly string[])[]): TEmailColumnGuess {
  const width = rows.reduce((max, row) => Math.max(max, row.length), 0);
  const first = rows[0] ?? [];
  const firstHasEmail = first.some((cell) => isEmailLike(cell));
  const firstHasText = first.some((cell) => cell.trim() !== '');
  const hasHeader = firstHasText && !firstHasEmail;
  const data = hasHeader ? rows.slice(1) : rows;

  const columns: TSheetColumn[] = [];
  for (let index = 0; index < width; index += 1) {
    const name = hasHeader ? (first[index] ?? '').trim() : '';
    columns.push({ index, label: name || `Column ${index + 1}` });
  }

  const counts = columns.map((column) => countEmails(data, column.index));
  const named = hasHeader ? columns.filter((column) => EMAIL_HEADER.test((first[column.index] ?? '').trim())) : [];
  const rank = (column: TSheetColumn) =>
    (counts[column.index] ?? 0) * 2 + (EXACT_EMAIL_HEADER.test((first[column.index] ?? '').trim()) ? 1 : 0);

  const namedWithData = named.filter((column) => (counts[column.index] ?? 0) > 0);
  if (namedWithData.length > 0) {
    return { hasHeader, columns, columnIndex: [...namedWithData].sort((a, b) => rank(b) - rank(a))[0]?.index ?? null };
  }
  const anyData = counts.some((count) => count > 0);
  if (!anyData && named.length > 0) {
    return { hasHeader, columns, columnIndex: [...named].sort((a, b) => rank(b) - rank(a))[0]?.index ?? null };
  }
  let best: number | null = null;
  counts.forEach((count, index) => {
    if (count > 0 && (best === null || count > (counts[best] ?? 0))) best = index;
  });
  return { hasHeader, columns, columnIndex: best };
}
