import { describe, expect, it } from 'vitest';
import { detectEmailColumn, isEmailLike } from './email-column';

describe('detectEmailColumn', () => {
  it('picks the column named Email when it holds addresses', () => {
    const guess = detectEmailColumn([
      ['Name', 'Company', 'Email'],
      ['Ann', 'Acme', 'ann@acme.test'],
      ['Bob', 'Acme', 'bob@acme.test'],
    ]);
    expect(guess).toMatchObject({ hasHeader: true, columnIndex: 2 });
    expect(guess.columns.map((column) => column.label)).toEqual(['Name', 'Company', 'Email']);
  });

  it('prefers the plain Email header over another e-mail-like header, when both hold addresses', () => {
    const guess = detectEmailColumn([
      ['Manager email', 'Email'],
      ['boss@acme.test', 'ann@acme.test'],
    ]);
    expect(guess.columnIndex).toBe(1);
  });

  it('finds addresses under an unhelpful header by counting them', () => {
    const guess = detectEmailColumn([
      ['first', 'contact', 'notes'],
      ['Ann', 'ann@acme.test', 'met at fair'],
      ['Bob', 'bob@acme.test', 'x@y'],
      ['Cy', 'not given', ''],
    ]);
    expect(guess).toMatchObject({ hasHeader: true, columnIndex: 1 });
  });

  it('treats a first row with an address as data (a plain TXT list)', () => {
    const guess = detectEmailColumn([['ann@acme.test'], ['bob@acme.test']]);
    expect(guess).toMatchObject({ hasHeader: false, columnIndex: 0 });
    expect(guess.columns).toEqual([{ index: 0, label: 'Column 1' }]);
  });

  it('follows a named header even when the preview has no data rows', () => {
    expect(detectEmailColumn([['Full name', 'E-mail address']]).columnIndex).toBe(1);
  });

  it('answers null when no column holds an address', () => {
    const guess = detectEmailColumn([
      ['name', 'phone'],
      ['Ann', '555-1234'],
    ]);
    expect(guess.columnIndex).toBeNull();
  });

  it('does not take a header like "Email opt-in" whose column has no address over a column with addresses', () => {
    const guess = detectEmailColumn([
      ['email opt-in', 'contact'],
      ['yes', 'ann@acme.test'],
    ]);
    expect(guess.columnIndex).toBe(1);
  });
});

describe('isEmailLike', () => {
  it.each([
    ['ann@acme.test', true],
    [' ann@acme.test ', true],
    ['ann@acme', false],
    ['ann acme.test', false],
    ['', false],
  ])('%s → %s', (value, expected) => {
    expect(isEmailLike(value)).toBe(expected);
  });
});
