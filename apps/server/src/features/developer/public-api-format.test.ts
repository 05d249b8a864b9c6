import { describe, expect, it } from 'vitest';
import { detectFinderColumns, toPublicFinderData } from './public-api-format';

describe('detectFinderColumns', () => {
  it('maps first, last, middle name and domain columns by their usual names, whatever their case and spacing', () => {
    expect(detectFinderColumns(['Email', 'First Name', 'Middle Name', 'LAST_NAME', 'Company Domain'])).toEqual({
      first_name_column: '1',
      middle_name_column: '2',
      last_name_column: '3',
      domain_column: '4',
    });
  });

  it('uses a full name column when there is no first/last pair, and a company column when there is no domain', () => {
    expect(detectFinderColumns(['Full Name', 'Organisation'])).toEqual({ full_name_column: '0', company_column: '1' });
    expect(detectFinderColumns(['First Name', 'Name', 'Website'])).toEqual({ full_name_column: '1', domain_column: '2' });
    expect(detectFinderColumns(['Name', 'Domain', 'Company'])).toEqual({ full_name_column: '0', domain_column: '1', company_column: '2' });
  });

  it('answers null without a name or without a domain/company column', () => {
    expect(detectFinderColumns(['email'])).toBeNull();
    expect(detectFinderColumns(['First Name', 'Last Name'])).toBeNull();
    expect(detectFinderColumns(['Domain', 'Title'])).toBeNull();
    expect(detectFinderColumns(['First Name', 'Domain'])).toBeNull();
  });
});

describe('toPublicFinderData', () => {
  it('keeps the reference fields only and answers an empty company name as ""', () => {
    const data = toPublicFinderData({
      emails: [{ email_address: 'ann.lee@acme.test', role: 'no', business: 'yes' }],
      first_name: 'ann',
      last_name: 'lee',
      full_name: 'ann lee',
      domain: 'acme.test',
      confidence_score: 93,
      total: 1,
      company: { name: null },
      found_on: '2026-01-01T00:00:00.000Z',
    });
    expect(data).toEqual({
      emails: [{ email_address: 'ann.lee@acme.test', role: 'no', business: 'yes' }],
      first_name: 'ann',
      last_name: 'lee',
      full_name: 'ann lee',
      domain: 'acme.test',
      confidence_score: 93,
      total: 1,
      company: { name: '' },
      found_on: '2026-01-01T00:00:00.000Z',
    });
  });
});
