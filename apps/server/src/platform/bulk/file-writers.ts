// CSV/XLSX writers shared by downloads and the email finder (lifted from downloads).
import { PassThrough, type Readable } from 'node:stream';

/** A phone number in international form (`+` then digits, spaces, dots, dashes, brackets): no formula can hide in it. */
export const PHONE_CELL = /^\+\d[\d ().-]*$/;

/**
 * Neutralises a CSV cell against formula injection: cells starting with = + - @ tab or CR get a leading apostrophe,
 * except a phone number such as +1 415 555 0100 (kept as written).
 */
export function neutraliseCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) && !PHONE_CELL.test(value) ? `'${value}` : value;
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

/** A plain decimal number (no leading zeros, no exponent, at most 15 significant digits), so that "00501" or a long id stays text. */
const PLAIN_NUMBER = /^-?(?:0|[1-9]\d{0,14})(?:\.\d{1,15})?$/;

/** A workbook cell value: a number when the text is a plain number (spreadsheets then sort and sum it), else the text itself. */
export function xlsxCellValue(value: string): string | number {
  if (!PLAIN_NUMBER.test(value) || value.replace(/[-.]/g, '').replace(/^0+/, '').length > 15) return value;
  const n = Number(value);
  return Number.isFinite(n) ? n : value;
}

/**
 * An XLSX byte stream from rows (streamed workbook writer: memory stays flat). Numbers are stored as numbers, everything
 * else as text (never as a formula). ExcelJS (a large package) is loaded on the first workbook, not by every server.
 */
export function writeXlsx(rows: AsyncIterable<string[]>, sheetName = 'Results'): Readable {
  const out = new PassThrough();
  void (async () => {
    try {
      const { default: ExcelJS } = await import('exceljs');
      const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
      const sheet = workbook.addWorksheet(sheetName);
      for await (const row of rows) sheet.addRow(row.map(xlsxCellValue)).commit();
      sheet.commit();
      await workbook.commit();
    } catch (err) {
      out.destroy(err instanceof Error ? err : new Error(String(err)));
    }
  })();
  return out;
}
