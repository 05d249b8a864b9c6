// CSV/XLSX writers shared by downloads and the email finder (lifted from downloads).
import { PassThrough, type Readable } from 'node:stream';
import ExcelJS from 'exceljs';

/** Neutralises a CSV cell against formula injection: cells starting with = + - @ tab or CR get a leading apostrophe. */
export function neutraliseCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** One CSV line (RFC 4180 quoting) with every cell neutralised. */
export function formatCsvLine(cells: string[]): string {
  return (
    cells
      .map((raw) => {
        const v = neutraliseCell(raw);
        return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
      })
      .join(',') + '\r\n'
  );
}

/** A CSV byte stream from rows (the first row is the header). */
export function writeCsv(rows: AsyncIterable<string[]>): Readable {
  async function* lines() {
    let buffer = '\uFEFF';
    for await (const row of rows) {
      buffer += formatCsvLine(row);
      if (buffer.length >= 64_000) {
        yield Buffer.from(buffer, 'utf8');
        buffer = '';
      }
    }
    if (buffer) yield Buffer.from(buffer, 'utf8');
  }
  return PassThrough.from(lines());
}

/** An XLSX byte stream from rows (streamed workbook writer: memory stays flat). Cells are written as text. */
export function writeXlsx(rows: AsyncIterable<string[]>, sheetName = 'Results'): Readable {
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  const sheet = workbook.addWorksheet(sheetName);
  void (async () => {
    try {
      for await (const row of rows) sheet.addRow(row).commit();
      sheet.commit();
      await workbook.commit();
    } catch (err) {
      out.destroy(err instanceof Error ? err : new Error(String(err)));
    }
  })();
  return out;
}
