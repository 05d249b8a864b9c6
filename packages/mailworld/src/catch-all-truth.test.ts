import { describe, expect, it } from 'vitest';
import { makeCatchAllTruth } from './catch-all-truth';
import { DOMAIN_BY_NAME } from './scenarios';

describe('makeCatchAllTruth', () => {
  it('knows, at each catch-all company, which addresses are real mailboxes and which are made up', () => {
    const companies = makeCatchAllTruth(7);
    expect(makeCatchAllTruth(7)).toEqual(companies);
    for (const c of companies) {
      expect(DOMAIN_BY_NAME.get(c.domain)?.mailbox).toBe('accept_all');
      const emails = c.candidates.map((x) => x.email);
      expect(new Set(emails).size).toBe(emails.length);
      // the addresses seen valid before the domain turned catch-all are the learning set, never scored
      expect(emails.filter((e) => c.knownValid.includes(e))).toEqual([]);
      const kinds = (kind: string) => c.candidates.filter((x) => x.kind === kind);
      expect(kinds('employee').every((x) => x.real)).toBe(true);
      expect([...kinds('random'), ...kinds('role'), ...kinds('outsider')].every((x) => !x.real)).toBe(true);
      expect(kinds('employee').length + c.knownValid.length).toBe(80);
      expect([kinds('random').length, kinds('role').length, kinds('outsider').length]).toEqual([15, 8, 25]);
      expect(c.directory.every((p) => p.email.endsWith(`@${c.domain}`))).toBe(true);
    }
  });
});
