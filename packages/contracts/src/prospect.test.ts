import { describe, expect, it } from 'vitest';
import { PROSPECT_SEARCH_COUNT_CAP, ZProspectMetaData, ZProspectSearchData, prospectTotalLabel } from './prospect';

describe('prospect search totals', () => {
  it('labels a capped count with a plus, as Apollo does, and an exact one without', () => {
    expect(prospectTotalLabel(PROSPECT_SEARCH_COUNT_CAP, true, 'people')).toBe('10,000+ people');
    expect(prospectTotalLabel(PROSPECT_SEARCH_COUNT_CAP, false, 'people')).toBe('10,000 people');
    expect(prospectTotalLabel(1_000_000, false, 'people')).toBe('1,000,000 people');
    expect(prospectTotalLabel(0, false, 'companies')).toBe('0 companies');
  });

  it('requires the labels in the API shapes', () => {
    const search = { type: 'people', people: [], companies: [], total: 10_000, page: 1, limit: 25 };
    expect(ZProspectSearchData.safeParse(search).success).toBe(false);
    expect(ZProspectSearchData.safeParse({ ...search, total_capped: true }).success).toBe(true);
    const meta = { total: 2_000, facets: {}, options: { seniorities: [], departments: [], size_ranges: [], revenue_ranges: [] } };
    expect(ZProspectMetaData.safeParse(meta).success).toBe(false);
    expect(ZProspectMetaData.safeParse({ ...meta, sampled: true }).success).toBe(true);
  });
});
