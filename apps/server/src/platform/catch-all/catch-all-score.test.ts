import { describe, expect, it } from 'vitest';
import { makeCatchAllScorer } from './catch-all-context';
import { scoreCatchAll, shapeOfLocal, type TCatchAllInput } from './catch-all-score';

const base: TCatchAllInput = {
  local: 'jane.doe',
  domain: 'acme.test',
  knownPatterns: {},
  seenValid: false,
  directoryAddress: false,
  directoryPerson: null,
  roleAccount: false,
  gibberishScore: 0.1,
};

describe('scoreCatchAll', () => {
  it.each([
    ['first.last', 'w.w', false],
    ['jsmith', 'w', false],
    ['j.smith', 'i.w', false],
    ['john_smith', 'w_w', false],
    ['john.s', 'w.i', false],
    ['john.smith77', 'w.w', true],
  ])('the shape of %s is %s', (local, shape, digits) => {
    expect(shapeOfLocal(local)).toEqual({ shape, digits });
  });

  // Each row: the input's changes from `base`, then the score's bounds and the evidence kinds expected.
  it.each<[string, Partial<TCatchAllInput>, [number, number], string[]]>([
    ['nothing known but a name-like local part', {}, [50, 65], ['no_pattern', 'name_like']],
    ['in the pattern of 14 known addresses', { knownPatterns: { 'first.last': 14 } }, [80, 95], ['pattern_match', 'name_like']],
    ['off the pattern of 14 known addresses', { local: 'jdoe', knownPatterns: { 'first.last': 14 } }, [15, 35], ['pattern_mismatch', 'name_like']],
    ['listed in the directory', { directoryAddress: true, knownPatterns: { 'first.last': 14 } }, [97, 100], ['directory_address', 'pattern_match', 'name_like']],
    ['a directory person in the pattern', { directoryPerson: { name: 'Jane Doe', pattern: 'first.last' } }, [90, 100], ['directory_name', 'no_pattern', 'name_like']],
    ['seen valid before', { seenValid: true }, [97, 100], ['seen_valid', 'no_pattern', 'name_like']],
    ['a role account', { local: 'info', roleAccount: true, knownPatterns: { 'first.last': 14 } }, [0, 15], ['role_account']],
    ['a random string', { local: 'xkqzvtr', gibberishScore: 0.9, knownPatterns: { flast: 14 } }, [0, 10], ['pattern_match', 'gibberish']],
    ['digits at the end', { local: 'jane.doe1987', knownPatterns: { 'first.last': 14 } }, [65, 85], ['pattern_match', 'name_like', 'digits']],
    ['hard-bounced', { bounced: 'hard', directoryAddress: true }, [0, 20], ['bounce', 'directory_address', 'no_pattern', 'name_like']],
  ])('%s', (_name, change, [low, high], kinds) => {
    const { score, evidence } = scoreCatchAll({ ...base, ...change });
    expect(score).toBeGreaterThanOrEqual(low);
    expect(score).toBeLessThanOrEqual(high);
    expect(evidence.map((e) => e.kind)).toEqual(kinds);
  });

  it('says which pattern and how many addresses it rests on', () => {
    const { evidence } = scoreCatchAll({ ...base, knownPatterns: { 'first.last': 12, 'last.first': 2, flast: 1 } });
    expect(evidence[0]!.text).toBe('matches first.last, the pattern of 14 known addresses of 15 known at acme.test');
  });

  it('orders the evidence: directory and pattern above the pattern alone above a stranger above gibberish', () => {
    const score = makeCatchAllScorer({
      domain: 'acme.test',
      sharedPatternCounts: { 'first.last': 6 },
      ownValidAddresses: ['ann.lee@acme.test', 'bob.stone@acme.test', 'carl.ray@acme.test'],
      directory: [{ firstName: 'Dana', lastName: 'Wells', email: null }],
    });
    const scores = ['dana.wells@acme.test', 'erin.cole@acme.test', 'ecole@acme.test', 'sales@acme.test', 'qxzkvbrt@acme.test'].map((e) => score(e).score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(new Set(scores).size).toBe(scores.length);
    expect(score('ann.lee@acme.test').evidence[0]!.kind).toBe('seen_valid');
  });
});
