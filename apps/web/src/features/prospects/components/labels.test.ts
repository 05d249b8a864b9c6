import { describe, expect, it } from 'vitest';
import { cleanFilters, countFilters, optionLabel, readFiltersParam, revenueLabel } from './labels';

describe('prospect filter helpers', () => {
  it('labels options and cleans filters', () => {
    expect(optionLabel('c_suite')).toBe('C-suite');
    expect(optionLabel('human_resources')).toBe('Human resources');
    expect(cleanFilters({ countries: [], seniorities: ['vp'], keywords: '', similar_titles: false })).toEqual({ seniorities: ['vp'] });
    expect(countFilters({ job_titles: ['CTO'], similar_titles: true, countries: ['US'] })).toBe(2);
  });
  it('reads the filters parameter, ignoring junk', () => {
    expect(readFiltersParam('{"countries":["US"]}')).toEqual({ countries: ['US'] });
    expect(readFiltersParam('{nope')).toEqual({});
    expect(readFiltersParam(null)).toEqual({});
  });

  it('shows a revenue range as money (the profile read "201-500 employees · 100M-500M")', () => {
    expect(['<1M', '1M-10M', '100M-500M', '500M-1B', '1B+'].map(revenueLabel)).toEqual(['Under $1M', '$1M–$10M', '$100M–$500M', '$500M–$1B', '$1B+']);
  });
});
