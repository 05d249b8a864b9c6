import { describe, expect, it } from 'vitest';
import { ZFinderUploadFields } from '@verilead/contracts';
import { assignFinderColumn, detectFinderColumns, EMPTY_FINDER_MAPPING, getMappingTags, listMappingProblems, toFinderUploadFields } from './finder-columns';

describe('detectFinderColumns', () => {
  it('maps first name, last name and domain from the headings', () => {
    const rows = [
      ['Id', 'First Name', 'Last_Name', 'Company', 'Website'],
      ['1', 'Ann', 'Lee', 'Acme', 'acme.test'],
    ];
    expect(detectFinderColumns(rows)).toEqual({ hasHeader: true, mapping: { first_name: 1, last_name: 2, full_name: null, domain: 4, company: 3 } });
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
});

describe('mapping edits and upload fields', () => {
  it('keeps one role per column', () => {
    const mapping = assignFinderColumn({ ...EMPTY_FINDER_MAPPING, first_name: 0, domain: 2 }, 'last_name', 0);
    expect(mapping).toMatchObject({ first_name: null, last_name: 0, domain: 2 });
    expect(getMappingTags(mapping)).toEqual(new Map([[0, 'Last name'], [2, 'Domain']]));
  });
  it('names what is missing', () => {
    expect(listMappingProblems(EMPTY_FINDER_MAPPING)).toHaveLength(2);
    expect(listMappingProblems({ ...EMPTY_FINDER_MAPPING, first_name: 0, domain: 1 })).toEqual(['Map the last name column.']);
    expect(listMappingProblems({ ...EMPTY_FINDER_MAPPING, full_name: 0, company: 1 })).toEqual([]);
  });
  it('builds fields the contract accepts', () => {
    const fields = toFinderUploadFields({ ...EMPTY_FINDER_MAPPING, first_name: 0, last_name: 1, domain: 3 }, 'People', true);
    expect(fields).toEqual({ list_name: 'People', has_header: 'true', first_name_column: 0, last_name_column: 1, domain_column: 3 });
    expect(ZFinderUploadFields.safeParse(fields).success).toBe(true);
    expect(ZFinderUploadFields.safeParse(toFinderUploadFields(EMPTY_FINDER_MAPPING, 'x', false)).success).toBe(false);
  });
});
