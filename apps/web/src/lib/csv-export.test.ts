import { describe, expect, it } from 'vitest';
import { toCsv, toCsvCell } from './csv-export';

describe('csv export', () => {
  it('quotes and neutralises formulas but keeps negative numbers', () => {
    expect(toCsvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(toCsvCell('@sum')).toBe("'@sum");
    expect(toCsvCell(-12)).toBe('-12');
    expect(toCsvCell('a,b')).toBe('"a,b"');
    expect(toCsvCell(null)).toBe('');
  });
  it('keeps phone numbers as written, and still neutralises a + that starts a formula', () => {
    expect(toCsvCell('+1 415 555 0100')).toBe('+1 415 555 0100');
    expect(toCsvCell('+44 (20) 7946-0958')).toBe('+44 (20) 7946-0958');
    expect(toCsvCell('+cmd|calc')).toBe("'+cmd|calc");
    expect(toCsvCell('+1+SUM(A1)')).toBe("'+1+SUM(A1)");
  });
  it('writes a header and one line per row', () => {
    expect(toCsv([{ day: '2026-03-10', total: 5 }], [{ key: 'day', label: 'Day' }, { key: 'total', label: 'Credits' }])).toBe('Day,Credits\r\n2026-03-10,5\r\n');
  });
});
