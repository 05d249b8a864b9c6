import { describe, expect, it } from 'vitest';
import { detectEmailColumn, detectFinderColumns, EMPTY_FINDER_MAPPING, isDomainLike, isEmailLike, listFinderMappingProblems } from './column-detection';

describe('detectEmailColumn', () => {
  it('keeps a forced header choice', () => {
    expect(detectEmailColumn([['ann@acme.test'], ['bob@acme.test']], true)).toMatchObject({ hasHeader: true, columnIndex: 0 });
  });

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

describe('detectFinderColumns', () => {
  it('maps first name, last name and domain from the headings', () => {
    const rows = [
      ['Id', 'First Name', 'Last_Name', 'Company', 'Website'],
      ['1', 'Ann', 'Lee', 'Acme', 'acme.test'],
    ];
    expect(detectFinderColumns(rows)).toEqual({ hasHeader: true, mapping: { first_name: 1, middle_name: null, last_name: 2, full_name: null, domain: 4, company: 3 } });
  });
  it('finds a domain column by its values when no heading names it', () => {
    const rows = [
      ['first', 'last', 'where'],
      ['Ann', 'Lee', 'acme.test'],
      ['Bob', 'Ray', 'globex.test'],
    ];
    expect(detectFinderColumns(rows).mapping).toMatchObject({ first_name: 0, last_name: 1, domain: 2 });
  });
  it('reads a file without a header row', () => {
    const rows = [
      ['Ann', 'Lee', 'acme.test'],
      ['Bob', 'Ray', 'globex.test'],
    ];
    const guess = detectFinderColumns(rows);
    expect(guess.hasHeader).toBe(false);
    expect(guess.mapping).toEqual({ ...EMPTY_FINDER_MAPPING, domain: 2 });
  });
  it('takes a full name column when there is no first name', () => {
    expect(detectFinderColumns([['Name', 'Domain'], ['Ann Lee', 'acme.test']]).mapping).toMatchObject({ full_name: 0, first_name: null, domain: 1 });
  });
  it('maps a middle name column, and gives a lone first name way to a full-name column', () => {
    expect(detectFinderColumns([['First', 'Middle Name', 'Last', 'Web'], ['Ann', 'B', 'Lee', 'acme.test']]).mapping).toMatchObject({ first_name: 0, middle_name: 1, last_name: 2, domain: 3 });
    expect(detectFinderColumns([['First', 'Contact Name', 'Company Website'], ['Ann', 'Ann Lee', 'acme.test']]).mapping).toMatchObject({ first_name: null, full_name: 1, domain: 2 });
  });
});

describe('listFinderMappingProblems', () => {
  it('names what is missing', () => {
    expect(listFinderMappingProblems(EMPTY_FINDER_MAPPING)).toHaveLength(2);
    expect(listFinderMappingProblems({ ...EMPTY_FINDER_MAPPING, first_name: 0, domain: 1 })).toEqual(['Map the last name column.']);
    expect(listFinderMappingProblems({ ...EMPTY_FINDER_MAPPING, full_name: 0, company: 1 })).toEqual([]);
  });
});

describe('isDomainLike', () => {
  it.each([
    ['acme.com', true],
    ['https://www.acme.co.uk/about', true],
    ['Acme Inc', false],
    ['acme', false],
  ])('%s → %s', (value, expected) => {
    expect(isDomainLike(value)).toBe(expected);
  });
});
