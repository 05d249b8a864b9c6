import { describe, expect, it } from 'vitest';
import { formatCsvLine, neutraliseCell } from './file-writers';

describe('CSV cells against formula injection', () => {
  it('neutralises = + - @ tab and CR, but keeps a phone number such as +1 415 555 0100 as written', () => {
    expect(neutraliseCell('+14155550100')).toBe('+14155550100');
    expect(neutraliseCell('+1 (415) 555-0100')).toBe('+1 (415) 555-0100');
    expect(neutraliseCell('+cmd|calc!A1')).toBe("'+cmd|calc!A1");
    expect(neutraliseCell('+1+SUM(A1)')).toBe("'+1+SUM(A1)");
    expect(neutraliseCell('=1+1')).toBe("'=1+1");
    expect(neutraliseCell('-2')).toBe("'-2");
    expect(neutraliseCell('@x')).toBe("'@x");
    expect(formatCsvLine(['Ada', '+44 20 7946 0958'])).toBe('Ada,+44 20 7946 0958\r\n');
  });
});
