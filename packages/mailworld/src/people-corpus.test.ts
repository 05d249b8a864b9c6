import { describe, expect, it } from 'vitest';
import { foldName, makeLocalPart, makePeopleCorpus } from './people-corpus';
import { startMailWorld } from './mail-world';

describe('makePeopleCorpus', () => {
  it('is deterministic and spreads people over strict, catch-all and greylisting domains', () => {
    const a = makePeopleCorpus(300, 7);
    const b = makePeopleCorpus(300, 7);
    expect(a.people).toEqual(b.people);
    expect(a.people.length).toBeGreaterThanOrEqual(290);
    const scenarios = new Set(a.people.map((p) => p.scenario));
    expect([...scenarios].sort()).toEqual(['catch_all', 'greylist', 'strict']);
    expect(new Set(a.people.map((p) => p.email)).size).toBe(a.people.length);
  });

  it('normalises accents, hyphens and particles in names', () => {
    expect(foldName('José')).toBe('jose');
    expect(foldName('van der Berg')).toBe('vanderberg');
    expect(foldName("O'Connor")).toBe('oconnor');
    expect(foldName('Wałęsa')).toBe('walesa');
    expect(makeLocalPart('f.last', 'Anne-Marie', 'de la Cruz')).toBe('a.delacruz');
  });

  it('serves the people as mailboxes of the world', async () => {
    const { people, corpus } = makePeopleCorpus(50, 3);
    const world = await startMailWorld({ corpus, preferPort25: false });
    try {
      for (const p of people) {
        const expected = world.truth.get(p.email);
        expect(expected?.status).toBe(p.scenario === 'catch_all' ? 'catch_all' : 'valid');
      }
    } finally {
      await world.stop();
    }
  });
});
