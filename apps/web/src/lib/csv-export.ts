/** A cell as CSV: quoted when needed, and neutralised when a spreadsheet would read it as a formula. */
export function toCsvCell(value: unknown): string {
  let text = value === null || value === undefined ? '' : String(value);
  // A number, or a phone number such as +1 415 555 0100, is kept as written: no formula can hide in it.
  if (/^[=+\-@\t\r]/.test(text) && !/^-?\d+(\.\d+)?$/.test(text) && !/^\+\d[\d ().-]*$/.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Rows of objects as CSV text, columns in the order given (header = each column's label). */
export function toCsv<T extends Record<string, unknown>>(rows: readonly T[], columns: readonly { key: keyof T & string; label: string }[]): string {
  const lines = [columns.map((c) => toCsvCell(c.label)).join(',')];
  for (const row of rows) lines.push(columns.map((c) => toCsvCell(row[c.key])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** Saves CSV text as a file through the browser. */
export function saveCsv(fileName: string, csv: string): void {
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}
