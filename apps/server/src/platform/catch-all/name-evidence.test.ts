import { describe, expect, it } from 'vitest';
import { makeCatchAllScorer } from './catch-all-context';
import { readNameLocal } from './name-reading';

const kinds = (evidence: readonly { kind: string }[]) => evidence.map((e) => e.kind);

describe('readNameLocal', () => {
  it.each([
    ['jsmith', 'flast', 'j', 'smith'],
    ['johnsmith', 'firstlast', 'john', 'smith'],
    ['smith.john', 'last.first', 'john', 'smith'],
    ['j.smith', 'f.last', 'j', 'smith'],
    ['john_smith', 'first_last', 'john', 'smith'],
    ['john', 'first', 'john', ''],
    ['smithj', 'lastf', 'j', 'smith'],
    ['john.smith1987', 'first.last', 'john', 'smith'],
  ])('reads %s as %s', (local, pattern, first, last) => {
    expect(readNameLocal(local)[0]).toMatchObject({ pattern, first, last });
  });

  it('reads no name in a random string, a three-part local part or digits inside', () => {
    expect([readNameLocal('xkqzvtrw'), readNameLocal('john.paul.smith'), readNameLocal('jo4hn')]).toEqual([[], [], []]);
  });
});

describe('catch-all evidence from the names in a local part', () => {
  // A flast domain: four addresses seen valid, each an initial and a common surname.
  const flast = makeCatchAllScorer({
    domain: 'acme.test',
    sharedPatternCounts: {},
    ownValidAddresses: ['asmith@acme.test', 'bjones@acme.test', 'cbrown@acme.test', 'dmoore@acme.test'],
    directory: [],
  });

  it('common_name: an initial and a common surname above a one-word string no name can be read in, above a random one', () => {
    const [named, unnamed, random] = ['jsmith', 'jwexford', 'xkqzvtrw'].map((l) => flast(`${l}@acme.test`));
    expect(named!.score).toBeGreaterThan(unnamed!.score);
    expect(unnamed!.score).toBeGreaterThan(random!.score);
    expect(kinds(named!.evidence)).toEqual(['pattern_match', 'name_like', 'common_name']);
    expect(named!.evidence[2]!.text).toBe("jsmith reads as a person's name in the flast pattern: smith a common surname");
  });

  it('not_a_name: a one-word local part with no common name in it is said so, and not called name-like', () => {
    const { evidence } = flast('jwexford@acme.test');
    expect(kinds(evidence)).toEqual(['pattern_match', 'not_a_name']);
    expect(evidence[0]!.text).toBe('one word, like flast, the pattern of 4 known addresses of 4 known at acme.test, though no common name can be read in it');
    expect(evidence[1]!.text).toBe('no common given name or surname can be read in jwexford, alone or run together');
  });

  // A firstlast domain: the names read in the addresses seen valid tell firstlast from flast (both one word).
  const firstlast = makeCatchAllScorer({
    domain: 'acme.test',
    sharedPatternCounts: {},
    ownValidAddresses: ['johnsmith@acme.test', 'marylee@acme.test', 'peterjones@acme.test'],
    directory: [
      { firstName: 'Dana', lastName: 'Wells', email: 'dana.wells@acme.test' },
      { firstName: 'Erin', lastName: 'Cole', email: null },
    ],
  });

  it('tells firstlast from flast by the names in them: annawhite matches, awhite does not', () => {
    const match = firstlast('annawhite@acme.test');
    const off = firstlast('awhite@acme.test');
    expect(match.evidence[0]).toEqual({ kind: 'pattern_match', text: 'matches firstlast, the pattern of 3 known addresses of 3 known at acme.test' });
    expect(off.evidence[0]).toEqual({ kind: 'pattern_mismatch', text: 'does not match firstlast, the pattern of 3 known addresses of 3 known at acme.test' });
    expect(match.score).toBeGreaterThan(off.score);
  });

  it("directory_name: a directory person's name in the domain's pattern above the same name in another pattern, above a stranger off the pattern", () => {
    const [inPattern, otherPattern, stranger] = ['erincole', 'ecole', 'awhite'].map((l) => firstlast(`${l}@acme.test`));
    expect(inPattern!.score).toBeGreaterThan(otherPattern!.score);
    expect(otherPattern!.score).toBeGreaterThan(stranger!.score);
    expect(inPattern!.evidence[0]!.text).toBe('Erin Cole works at acme.test (prospect directory); erincole is that name in the firstlast pattern');
    expect(otherPattern!.evidence[0]!.text).toBe("Erin Cole works at acme.test (prospect directory); ecole is that name in the flast pattern, not in firstlast, the domain's");
  });

  it("directory_other_address: another form of a directory person's name whose address there is known scores below a stranger", () => {
    const other = firstlast('dwells@acme.test');
    expect(other.evidence[0]).toEqual({ kind: 'directory_other_address', text: 'Dana Wells works at acme.test, but at dana.wells@acme.test; dwells is another form of that name' });
    expect(other.score).toBeLessThan(firstlast('awhite@acme.test').score);
    expect(firstlast('dana.wells@acme.test').score).toBeGreaterThan(firstlast('annawhite@acme.test').score);
  });

  it('tells last.first from first.last when both names read: smith.john is off the pattern of ann.lee, bob.stone, carl.ray', () => {
    const dotted = makeCatchAllScorer({ domain: 'acme.test', sharedPatternCounts: {}, ownValidAddresses: ['ann.lee@acme.test', 'bob.stone@acme.test', 'carl.ray@acme.test'], directory: [] });
    const [right, reversed] = ['john.smith', 'smith.john'].map((l) => dotted(`${l}@acme.test`));
    expect(right!.evidence[0]).toEqual({ kind: 'pattern_match', text: 'matches first.last, the pattern of 3 known addresses of 3 known at acme.test' });
    expect(reversed!.evidence[0]).toEqual({ kind: 'pattern_mismatch', text: 'does not match first.last, the pattern of 3 known addresses of 3 known at acme.test' });
    expect(right!.score).toBeGreaterThan(reversed!.score);
  });

  it('says when the separator is what differs from the pattern', () => {
    const dotted = makeCatchAllScorer({ domain: 'acme.test', sharedPatternCounts: {}, ownValidAddresses: ['ann.lee@acme.test', 'bob.stone@acme.test', 'carl.ray@acme.test'], directory: [] });
    const underscore = dotted('erin_cole@acme.test');
    expect(underscore.evidence[0]!.text).toBe('does not match first.last, the pattern of 3 known addresses of 3 known at acme.test (it joins the names with "_" where they use ".")');
    expect(underscore.score).toBeLessThan(dotted('erin.cole@acme.test').score);
  });
});
