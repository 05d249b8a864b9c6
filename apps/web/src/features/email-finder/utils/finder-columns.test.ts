import { describe, expect, it } from 'vitest';
import { EMPTY_FINDER_MAPPING, ZFinderUploadFields } from '@verilead/contracts';
import { assignFinderColumn, getMappingTags, toFinderUploadFields } from './finder-columns';

describe('mapping edits and upload fields', () => {
  it('keeps one role per column', () => {
    const mapping = assignFinderColumn({ ...EMPTY_FINDER_MAPPING, first_name: 0, domain: 2 }, 'last_name', 0);
    expect(mapping).toMatchObject({ first_name: null, last_name: 0, domain: 2 });
    expect(getMappingTags(mapping)).toEqual(new Map([[0, 'Last name'], [2, 'Domain']]));
  });
  it('builds fields the contract accepts', () => {
    const fields = toFinderUploadFields({ ...EMPTY_FINDER_MAPPING, first_name: 0, last_name: 1, domain: 3 }, 'People', true);
    expect(fields).toEqual({ list_name: 'People', has_header: 'true', first_name_column: 0, last_name_column: 1, domain_column: 3 });
    expect(ZFinderUploadFields.safeParse(fields).success).toBe(true);
    expect(ZFinderUploadFields.safeParse(toFinderUploadFields(EMPTY_FINDER_MAPPING, 'x', false)).success).toBe(false);
  });
});
