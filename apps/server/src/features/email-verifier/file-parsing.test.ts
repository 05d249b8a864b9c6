import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { checkFileHead, detectFileType, FileParseError, inspectRows, readRowBatches, readRows } from './file-parsing';

async function collect(text: string, type: 'csv' | 'txt') {
  const rows: string[][] = [];
  for await (const r of readRows(Readable.from([Buffer.from(text)]), type)) rows.push(r);
  return rows;
}

describe('file parsing', () => {
  it('detects the type from the name', () => {
    expect(detectFileType('Leads.CSV')).toBe('csv');
    expect(detectFileType('a.xlsx')).toBe('xlsx');
    expect(detectFileType('a.txt')).toBe('txt');
    expect(detectFileType('a.xls')).toBeNull();
    expect(detectFileType('csv')).toBeNull();
  });

  it('refuses empty, binary, non-UTF-8 and fake XLSX heads', () => {
    expect(() => checkFileHead(Buffer.alloc(0), 'csv')).toThrow(FileParseError);
    expect(() => checkFileHead(Buffer.from([0x61, 0, 0x62]), 'csv')).toThrow(/binary/);
    expect(() => checkFileHead(Buffer.from([0x61, 0xff, 0xfe, 0x62]), 'txt')).toThrow(/UTF-8/);
    expect(() => checkFileHead(Buffer.from('email\n'), 'xlsx')).toThrow(/XLSX/);
    expect(() => checkFileHead(Buffer.from('émail,x\n', 'utf8'), 'csv')).not.toThrow();
  });

  it('reads CSV with quotes, semicolons and a BOM, and TXT lines', async () => {
    expect(await collect('\uFEFFname;email\n"Doe; Jane";jane@strict.test\n', 'csv')).toEqual([
      ['name', 'email'],
      ['Doe; Jane', 'jane@strict.test'],
    ]);
    expect(await collect('\uFEFFa@strict.test\r\nb@strict.test\n', 'txt')).toEqual([['a@strict.test'], ['b@strict.test']]);
  });

  it('reads a CSV with one delimiter: a semicolon in a comma file is data and the e-mail column stays', async () => {
    const rows = await collect('name,email\nSmith; John,john@x.test\nRoe; Rick,rick@x.test\n', 'csv');
    expect(rows).toEqual([
      ['name', 'email'],
      ['Smith; John', 'john@x.test'],
      ['Roe; Rick', 'rick@x.test'],
    ]);
    const found = await inspectRows(
      (async function* () {
        yield* rows;
      })(),
      { fileName: 'x.csv', fileType: 'csv' },
    );
    expect(found).toMatchObject({ has_header: true, email_column: 1, columns: ['name', 'email'] });
  });

  it('finds the header and the e-mail column, or explains why not', async () => {
    const rows = (r: string[][]) => (async function* () {
      yield* r;
    })();
    const found = await inspectRows(rows([['id', 'Work email'], ['1', 'a@strict.test'], ['2', 'b@strict.test']]), { fileName: 'x.csv', fileType: 'csv' });
    expect(found).toMatchObject({ has_header: true, email_column: 1, columns: ['id', 'Work email'], rows: [['1', 'a@strict.test'], ['2', 'b@strict.test']] });
    const headerless = await inspectRows(rows([['a@strict.test'], ['b@strict.test']]), { fileName: 'x.txt', fileType: 'txt' });
    expect(headerless).toMatchObject({ has_header: false, email_column: 0, columns: ['Column 1'] });
    await expect(inspectRows(rows([['name'], ['Ada']]), { fileName: 'x.csv', fileType: 'csv' })).rejects.toThrow(/No column with email/);
    await expect(inspectRows(rows([]), { fileName: 'x.csv', fileType: 'csv' })).rejects.toThrow(/no rows/);
    await expect(inspectRows(rows([['a', 'b@strict.test']]), { fileName: 'x.csv', fileType: 'csv', emailColumn: 0 })).rejects.toThrow(/holds no email/);
  });

  it('reads a large CSV in batches: quoted line breaks, blank lines, and UTF-8 characters split across chunks', async () => {
    const lines = ['name,email'];
    for (let i = 0; i < 20_000; i += 1) lines.push(i % 1000 === 5 ? `"Line\nbreak, ${i}",über${i}@strict.test` : i % 777 === 0 ? '' : `Zoë ${i},zoë${i}@strict.test`);
    const bytes = Buffer.from(lines.join('\n') + '\n', 'utf8');
    // Chunks of 1,001 bytes cut through the two-byte ë and ü again and again.
    const chunks: Buffer[] = [];
    for (let at = 0; at < bytes.length; at += 1001) chunks.push(bytes.subarray(at, at + 1001));
    let batches = 0;
    const rows: string[][] = [];
    for await (const batch of readRowBatches(Readable.from(chunks), 'csv')) {
      batches += 1;
      rows.push(...batch);
    }
    const expected = lines.filter((l) => l !== '').length;
    expect(rows).toHaveLength(expected);
    expect(batches).toBeLessThan(expected / 10);
    expect(rows.filter((r) => r[1]!.startsWith('zoë')).length + rows.filter((r) => r[1]!.startsWith('über')).length).toBe(expected - 1);
    expect(rows.find((r) => r[1] === 'über5@strict.test')).toEqual(['Line\nbreak, 5', 'über5@strict.test']);
    expect(rows.some((r) => r.join(',').includes('\uFFFD'))).toBe(false);
  });

  it('answers a file that fails while it is read with a readable error', async () => {
    const failing = new Readable({
      read() {
        this.push(Buffer.from('email\na@strict.test\n'));
        this.destroy(Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO', syscall: 'read' }));
      },
    });
    await expect(
      (async () => {
        for await (const batch of readRowBatches(failing, 'csv')) void batch;
      })(),
    ).rejects.toThrow(/could not be read; please upload it again/);
  });
});
