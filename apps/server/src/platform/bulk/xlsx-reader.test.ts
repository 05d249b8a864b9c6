import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { FileParseError, readRows } from './file-parsing';
import { writeXlsx } from './file-writers';
import { readXlsxRows, XLSX_LIMITS, XlsxReadError, type TXlsxLimits } from './xlsx-reader';
import { buildSharedStringsBomb, buildXlsx, sharedStringsXml, sheetXml } from './xlsx-test-files';

async function rowsOf(file: Buffer, limits?: TXlsxLimits): Promise<string[][]> {
  const rows: string[][] = [];
  const source = limits ? readXlsxRows(Readable.from([file]), limits) : readRows(Readable.from([file]), 'xlsx');
  for await (const r of source) rows.push(r);
  return rows;
}

async function failureOf(file: Buffer, limits?: TXlsxLimits): Promise<Error> {
  try {
    await rowsOf(file, limits);
  } catch (err) {
    return err as Error;
  }
  throw new Error('the workbook was read');
}

describe('the bounded XLSX reader', () => {
  it('reads shared strings written after the sheet (as Excel orders them), inline strings, numbers and gaps', async () => {
    const file = buildXlsx({
      'xl/worksheets/sheet1.xml':
        '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>' +
        '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="C1" t="inlineStr"><is><t>phone</t></is></c></row>' +
        '<row r="2"><c r="A2" t="s"><v>1</v></c><c r="C2"><v>4155550100</v></c><c r="D2" t="b"><v>1</v></c></row>' +
        '</sheetData></worksheet>',
      'xl/sharedStrings.xml': sharedStringsXml(['email', 'a@strict.test']),
    });
    expect(await rowsOf(file)).toEqual([
      ['email', '', 'phone'],
      ['a@strict.test', '', '4155550100', 'true'],
    ]);
  });

  it('reads the workbooks our own XLSX writer produces', async () => {
    const chunks: Buffer[] = [];
    for await (const c of writeXlsx(Readable.from([['email', 'name'], ['a@strict.test', 'Ada & Co <x>']]))) chunks.push(c as Buffer);
    expect(await rowsOf(Buffer.concat(chunks))).toEqual([
      ['email', 'name'],
      ['a@strict.test', 'Ada & Co <x>'],
    ]);
  });

  it('reads cells without references and answers readable messages for malformed workbooks (never "Cannot read properties")', async () => {
    expect(await rowsOf(buildXlsx({ 'xl/worksheets/sheet1.xml': sheetXml([[0, 'x'], [1]], { cellRefs: false }) }))).toEqual([['email', 'x'], ['a@strict.test']]);
    const malformed: [string, Buffer, RegExp][] = [
      ['no workbook part', buildXlsx({ 'xl/workbook.xml': null }), /not a valid XLSX workbook/],
      ['no worksheet', buildXlsx({ 'xl/worksheets/sheet1.xml': null }), /has no worksheet/],
      ['missing shared string', buildXlsx({ 'xl/worksheets/sheet1.xml': sheetXml([[0], [7]]) }), /cell A2 refers to a text that does not exist/],
      ['broken XML', buildXlsx({ 'xl/worksheets/sheet1.xml': '<worksheet><sheetData><row><c t="s"><v>0</v></row>' }), /not well-formed XML/],
      ['cut short', buildXlsx({}).subarray(0, 300), /damaged/],
    ];
    for (const [what, file, message] of malformed) {
      const err = await failureOf(file);
      expect(err, what).toBeInstanceOf(FileParseError);
      expect(err.message, what).toMatch(message);
      expect(err.message, what).not.toMatch(/Cannot read|undefined/);
    }
  });

  it('refuses a shared-strings zip bomb from its declared size, before inflating it', async () => {
    const bomb = buildSharedStringsBomb(300);
    expect(bomb.length).toBeLessThan(1_000_000);
    const err = await failureOf(bomb);
    expect(err).toBeInstanceOf(FileParseError);
    expect(err.message).toMatch(/too large to read: xl\/sharedStrings\.xml expands to more than 100 MB; please split it or save it as CSV/);
  });

  it('refuses a zip bomb that lies about its size while inflating it', async () => {
    const bomb = buildSharedStringsBomb(300, { declaredSize: 2 * 1024 * 1024 });
    const err = await failureOf(bomb);
    expect(err).toBeInstanceOf(FileParseError);
    expect(err.message).toMatch(/holds more data than it declares/);
  });

  it('enforces the limits on shared strings, rows, cells, columns and text length', async () => {
    const small = (over: Partial<TXlsxLimits>) => ({ ...XLSX_LIMITS, ...over });
    const strings = Array.from({ length: 50 }, (_, i) => `s${i}@strict.test`);
    const cases: [string, Buffer, Partial<TXlsxLimits>, RegExp][] = [
      ['strings', buildXlsx({ 'xl/sharedStrings.xml': sharedStringsXml(strings) }), { maxSharedStrings: 10 }, /more than 10 distinct texts/],
      ['characters', buildXlsx({ 'xl/sharedStrings.xml': sharedStringsXml(strings) }), { maxSharedStringChars: 100 }, /more than 100 characters/],
      ['rows', buildXlsx({ 'xl/worksheets/sheet1.xml': sheetXml(strings.map((s) => [s])) }), { maxRows: 20 }, /more than 20 rows/],
      ['cells', buildXlsx({ 'xl/worksheets/sheet1.xml': sheetXml(strings.map((s) => [s, s])) }), { maxCells: 30 }, /more than 30 cells/],
      ['columns', buildXlsx({ 'xl/worksheets/sheet1.xml': sheetXml([strings.slice(0, 8)]) }), { maxColumns: 5 }, /more than 5 columns/],
      ['text', buildXlsx({ 'xl/worksheets/sheet1.xml': sheetXml([['x'.repeat(300_000)]]) }), { maxTextBytes: 100_000 }, /longer than any spreadsheet cell/],
      ['total', buildXlsx({ 'xl/sharedStrings.xml': sharedStringsXml(strings) }), { maxTotalBytes: 1_000 }, /expands to more than/],
    ];
    for (const [what, file, over, message] of cases) {
      const err = await failureOf(file, small(over));
      expect(err, what).toBeInstanceOf(XlsxReadError);
      expect(err.message, what).toMatch(message);
    }
  });
});
