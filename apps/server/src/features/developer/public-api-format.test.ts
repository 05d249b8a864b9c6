import { describe, expect, it } from 'vitest';
import { detectFinderColumns } from '@verilead/contracts';
import { toFinderUploadMapping, toPublicFinderData } from './public-api-format';

/** The public bulk finder's fields for a file whose first row is `header` and second a data row. */
const fieldsFor = (header: string[], row: string[] = header.map(() => 'x')) => toFinderUploadMapping(detectFinderColumns([header, row]));

describe('toFinderUploadMapping (the public bulk finder reads columns as the web app does)', () => {
  it('maps first, last, middle name and domain columns by their usual names, whatever their case and spacing', () => {
    expect(fieldsFor(['Email', 'First Name', 'Middle Name', 'LAST_NAME', 'Company Domain'])).toEqual({
      has_header: 'true',
      first_name_column: '1',
      middle_name_column: '2',
      last_name_column: '3',
      domain_column: '4',
    });
  });

  it('uses a full name column when there is no first/last pair, and a company column when there is no domain', () => {
    expect(fieldsFor(['Full Name', 'Organisation'])).toEqual({ has_header: 'true', full_name_column: '0', company_column: '1' });
    expect(fieldsFor(['First Name', 'Name', 'Website'])).toEqual({ has_header: 'true', full_name_column: '1', domain_column: '2' });
    expect(fieldsFor(['Name', 'Domain', 'Company'])).toEqual({ has_header: 'true', full_name_column: '0', domain_column: '1', company_column: '2' });
  });

  it('finds a domain column by its values, and reads a file without a header row', () => {
    expect(fieldsFor(['First Name', 'Last Name', 'Where'], ['Ann', 'Lee', 'acme.test'])).toEqual({ has_header: 'true', first_name_column: '0', last_name_column: '1', domain_column: '2' });
    expect(toFinderUploadMapping(detectFinderColumns([['Ann Lee', 'acme.test']]))).toBeNull();
  });

  it('answers null without a name or without a domain/company column', () => {
    expect(fieldsFor(['email'])).toBeNull();
    expect(fieldsFor(['First Name', 'Last Name'])).toBeNull();
    expect(fieldsFor(['Domain', 'Title'])).toBeNull();
    expect(fieldsFor(['First Name', 'Domain'])).toBeNull();
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
