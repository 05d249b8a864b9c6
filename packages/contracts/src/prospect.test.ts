import { describe, expect, it } from 'vitest';
import { PROSPECT_SEARCH_COUNT_CAP, ZProspectMetaData, ZProspectSearchData, describeUnrevealed, prospectTotalLabel, type TRevealFieldCode, type TRevealResult } from './prospect';

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

describe('what an enrichment left unrevealed', () => {
  const result = (email: TRevealFieldCode, phone: TRevealFieldCode): TRevealResult => ({
    person_id: 'p',
    email: { code: email, credits: email === 'revealed' ? 1 : 0, reason: null },
    phone: { code: phone, credits: phone === 'revealed' ? 2 : 0, reason: null },
  });

  it('says nothing when all asked for was revealed (now or before)', () => {
    expect(describeUnrevealed([result('revealed', 'revealed'), result('already_revealed', 'already_revealed')])).toBeNull();
  });

  it('names the addresses to try again apart from those that cannot be revealed', () => {
    expect(describeUnrevealed([result('unverified', 'revealed'), result('out_of_time', 'none'), result('undeliverable', 'excluded'), result('excluded', 'excluded')])).toBe(
      'Not revealed and not charged: 2 e-mails could not be confirmed right now (try again in a few minutes, or enrich a list, which waits for slow mail servers); 1 e-mail cannot receive mail; 3 left out by your enrich options; 1 not in the directory.',
    );
  });
});
