import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestDb, type TTestDb } from '../../test/test-db';
import { selectRows } from '../../platform/db/database';
import { DirectoryImportError, importDirectory } from './directory-import';

const HEADER = 'record,external_id,name,domain,industry,industry_code,employees,country,technologies';

describe('directory import: broken rows', () => {
  let t: TTestDb;
  beforeAll(async () => {
    t = await createTestDb();
  });
  afterAll(async () => {
    await t.dispose();
  });

  const storedCompanies = async (ids: string[]) =>
    (
      await selectRows<{ external_id: string }>(
        t.db,
        sql`select external_id from directory_companies where external_id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)}) order by external_id`,
      )
    ).map((r) => r.external_id);

  it('skips a CSV row with an unterminated or stray quote, reports its line, and imports the rows after it', async () => {
    const csv = [
      HEADER,
      'company,q-c1,First Co,first.example,Software Publishers,511210,40,US,AWS',
      'company,"q-c2,Broken Co,broken.example,Software Publishers,511210,40,US,AWS',
      'company,q-c3,Third Co,third.example,Software Publishers,511210,40,GB,',
      'company,q-c4,Fo"ur Co,four.example,Software Publishers,511210,40,US,',
      'company,q-c5,"Fifth, Inc.",fifth.example,Software Publishers,511210,40,DE,Stripe;AWS',
      '',
    ].join('\n');
    const report = await importDirectory(t, Readable.from([csv]), 'csv');
    expect(report.companies).toBe(3);
    expect(report.bad).toEqual([
      { line: 3, message: 'is not a valid CSV row: a quoted field is not closed on its line' },
      { line: 5, message: 'is not a valid CSV row: a quote inside a field that does not start with one' },
    ]);
    expect(await storedCompanies(['q-c1', 'q-c2', 'q-c3', 'q-c4', 'q-c5'])).toEqual(['q-c1', 'q-c3', 'q-c5']);
  });

  it('refuses a file whose CSV header row is broken, with a message naming it, and imports nothing', async () => {
    const csv = ['record,"external_id,name', 'company,h-c1,Head Co,head.example,Software Publishers,511210,40,US,'].join('\n');
    const attempt = importDirectory(t, Readable.from([csv]), 'csv');
    await expect(attempt).rejects.toBeInstanceOf(DirectoryImportError);
    await expect(attempt).rejects.toThrow('The header row (line 1) is not a valid CSV row: a quoted field is not closed on its line; nothing was imported.');
    expect(await storedCompanies(['h-c1'])).toEqual([]);
  });

  it('refuses a country that is not an ISO 3166 code (ZZ, XX) in CSV and NDJSON, and keeps real ones', async () => {
    const csv = [HEADER, 'company,iso-c1,Zed Co,zed.example,Software Publishers,511210,40,ZZ,', 'company,iso-c2,Real Co,real.example,Software Publishers,511210,40,in,'].join('\n');
    const fromCsv = await importDirectory(t, Readable.from([csv]), 'csv');
    expect(fromCsv.companies).toBe(1);
    expect(fromCsv.bad).toEqual([{ line: 2, message: 'country is not an ISO 3166 country code' }]);
    const ndjson = [
      JSON.stringify({ record: 'person', external_id: 'iso-p1', first_name: 'Zed', last_name: 'Nowhere', title: 'CTO', seniority: 'c_suite', department: 'engineering', country: 'XX' }),
      JSON.stringify({ record: 'person', external_id: 'iso-p2', first_name: 'Ada', last_name: 'Somewhere', title: 'CTO', seniority: 'c_suite', department: 'engineering', country: 'fr' }),
    ].join('\n');
    const fromNdjson = await importDirectory(t, Readable.from([ndjson]), 'ndjson');
    expect(fromNdjson.people).toBe(1);
    expect(fromNdjson.bad).toEqual([{ line: 1, message: 'country is not an ISO 3166 country code' }]);
    expect(await storedCompanies(['iso-c1', 'iso-c2'])).toEqual(['iso-c2']);
    const people = await selectRows<{ external_id: string; country: string }>(t.db, sql`select external_id, country from directory_people where external_id like 'iso-%'`);
    expect(people).toEqual([{ external_id: 'iso-p2', country: 'FR' }]);
  });
});
