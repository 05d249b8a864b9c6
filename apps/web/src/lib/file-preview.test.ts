import { describe, expect, it } from 'vitest';
import { parseDelimitedPreview, readFilePreview, toSheetPreview } from './file-preview';

describe('file preview', () => {
  it('parses CSV with quotes, a BOM and blank lines, up to the row limit', () => {
    const text = '\uFEFFname,email\n"Smith, Ann",ann@acme.test\n\nBob,bob@acme.test\nCy,cy@acme.test\n';
    expect(parseDelimitedPreview(text, 3).rows).toEqual([
      ['name', 'email'],
      ['Smith, Ann', 'ann@acme.test'],
      ['Bob', 'bob@acme.test'],
    ]);
  });

  it('shows the columns the server will read: a semicolon inside a comma file is data', () => {
    expect(parseDelimitedPreview('name,email\nSmith; John,john@x.test\n').rows).toEqual([
      ['name', 'email'],
      ['Smith; John', 'john@x.test'],
    ]);
  });

  it('detects semicolon and tab delimiters', () => {
    expect(parseDelimitedPreview('a;b\nann@x.test;1\n').rows).toEqual([
      ['a', 'b'],
      ['ann@x.test', '1'],
    ]);
    expect(parseDelimitedPreview('a\tb\nann@x.test\t1\n').rows[1]).toEqual(['ann@x.test', '1']);
  });

  it('refuses binary content', () => {
    expect(() => parseDelimitedPreview('PK\u0003\u0004\u0000\u0000')).toThrow(/not a text file/);
  });

  it('turns sheet cells into text and skips empty rows', () => {
    const rows = toSheetPreview([['Email', 'Age', 'Joined'], [null, null, null], ['ann@acme.test', 31, new Date('2024-02-03T00:00:00Z')]]);
    expect(rows.rows).toEqual([
      ['Email', 'Age', 'Joined'],
      ['ann@acme.test', '31', '2024-02-03'],
    ]);
  });

  it('reads a TXT file chosen in the browser', async () => {
    const file = new File(['ann@acme.test\nbob@acme.test\n'], 'list.txt', { type: 'text/plain' });
    expect((await readFilePreview(file)).rows).toEqual([['ann@acme.test'], ['bob@acme.test']]);
  });

  it('explains a malformed XLSX', async () => {
    const file = new File(['this is not a zip'], 'broken.xlsx');
    await expect(readFilePreview(file)).rejects.toThrow(/could not be read/);
  });
});
