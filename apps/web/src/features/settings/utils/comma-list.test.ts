import { describe, expect, it } from 'vitest';
import { normaliseListEntry, parseCommaList, planListAddition } from './comma-list';

describe('parseCommaList', () => {
  it('trims, drops empties, de-duplicates and cuts to 10', () => {
    const input = ' a.test, ,b.test,,A.test , c.test,d.test,e.test,f.test,g.test,h.test,i.test,j.test,k.test';
    const parsed = parseCommaList(input);
    expect(parsed.items).toEqual(['a.test', 'b.test', 'c.test', 'd.test', 'e.test', 'f.test', 'g.test', 'h.test', 'i.test', 'j.test']);
    expect(parsed.overLimit).toEqual(['k.test']);
  });

  it('accepts new lines as separators', () => {
    expect(parseCommaList('x.test\ny.test').items).toEqual(['x.test', 'y.test']);
  });
});

describe('planListAddition', () => {
  it('normalises entries and splits them into new, existing, invalid and over the limit', () => {
    const plan = planListAddition('@Acme.test, boss@Acme.test, acme.test, old.test, not an entry, x', ['old.test'], 2);
    expect(plan).toEqual({ add: ['acme.test', 'boss@acme.test'], existing: ['old.test'], invalid: ['not an entry', 'x'], overLimit: [] });
    expect(planListAddition('a.test,b.test,c.test', [], 2).overLimit).toEqual(['c.test']);
  });

  it('takes addresses and domains only', () => {
    expect(normaliseListEntry(' @Example.COM ')).toBe('example.com');
    expect(normaliseListEntry('Ann@Example.com')).toBe('ann@example.com');
    expect(normaliseListEntry('localhost')).toBeNull();
    expect(normaliseListEntry('bad domain.com')).toBeNull();
  });
});
