import { describe, expect, it } from 'vitest';
import { FINDER_COMPANY_NAME_UNSUPPORTED, ZQuickFinderForm, readFinderDomain } from './email-finder';

describe('Quick Finder form (the rule the server applies)', () => {
  it('accepts first name, last name and a domain, normalising URLs and www.', () => {
    expect(ZQuickFinderForm.parse({ first_name: ' Jane ', last_name: 'Doe', domain: 'https://www.Acme.com/about' })).toEqual({ first_name: 'Jane', last_name: 'Doe', domain: 'acme.com' });
  });

  it('requires the last name, as the server does', () => {
    const r = ZQuickFinderForm.safeParse({ first_name: 'Jane', last_name: '  ', domain: 'acme.com' });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['last_name', 'Please enter the last name']]);
  });

  it('refuses a company name with a message for people (no companies directory yet)', () => {
    const r = ZQuickFinderForm.safeParse({ first_name: 'Jane', last_name: 'Doe', domain: 'Acme Inc' });
    expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['domain', FINDER_COMPANY_NAME_UNSUPPORTED]]);
    expect(readFinderDomain('Acme Inc')).toEqual({ company: 'Acme Inc' });
    expect(readFinderDomain('bad..domain')).toHaveProperty('error');
  });
});
