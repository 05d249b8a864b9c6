import { describe, expect, it } from 'vitest';
import { describeFinderReason, FINDER_LIST_STATE_LOOKS, getConfidenceLook, listFinderFlags } from './finder-format';

describe('finder formatting', () => {
  it('labels confidence by the spec bands', () => {
    expect(getConfidenceLook(1).label).toBe('Very Low');
    expect(getConfidenceLook(30).label).toBe('Very Low');
    expect(getConfidenceLook(31).label).toBe('Low');
    expect(getConfidenceLook(60).label).toBe('Low');
    expect(getConfidenceLook(61)).toEqual({ label: 'Moderate', color: 'lime' });
    expect(getConfidenceLook(80).label).toBe('Moderate');
    expect(getConfidenceLook(81)).toEqual({ label: 'High', color: 'teal' });
    expect(getConfidenceLook(0)).toEqual({ label: 'None', color: 'gray' });
  });
  it('has a look for the four list states', () => {
    expect(Object.keys(FINDER_LIST_STATE_LOOKS).sort()).toEqual(['cancelled', 'in_progress', 'not_processed', 'processed']);
  });
  it('describes reasons with the server text first', () => {
    expect(describeFinderReason({ code: 'verified_valid', text: 'Accepted by mx.acme.test' })).toBe('Accepted by mx.acme.test');
    expect(describeFinderReason({ code: 'catch_all_best_guess', text: '' })).toMatch(/accepts every address/);
    expect(describeFinderReason({ code: 'brand_new', text: null })).toBe('Brand new');
    expect(describeFinderReason(null)).toBe('-');
  });
  it('lists the flags that are on', () => {
    const flags = listFinderFlags({ business: true, role: false, catch_all: true });
    expect(flags.filter((flag) => flag.on).map((flag) => flag.key)).toEqual(['business', 'catch_all']);
  });
});
