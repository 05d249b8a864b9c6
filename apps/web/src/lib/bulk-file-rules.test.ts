import { describe, expect, it } from 'vitest';
import { BULK_FILE_SIZE_LIMIT_BYTES } from '@verilead/contracts';
import { checkBulkFile, describeBulkFileKinds, formatFileSize, getBulkFileAccept, getBulkFileKind } from './bulk-file-rules';

describe('checkBulkFile', () => {
  it('accepts a CSV, XLSX or TXT file up to exactly 20,000,000 bytes', () => {
    expect(checkBulkFile({ name: 'leads.csv', size: BULK_FILE_SIZE_LIMIT_BYTES })).toBeNull();
    expect(checkBulkFile({ name: 'Leads.XLSX', size: 10 })).toBeNull();
    expect(checkBulkFile({ name: 'list.txt', size: 1 })).toBeNull();
  });

  it('refuses 20,000,001 bytes with both sizes in the message', () => {
    const message = checkBulkFile({ name: 'big.csv', size: BULK_FILE_SIZE_LIMIT_BYTES + 1 });
    expect(message).toContain('20,000,001 bytes');
    expect(message).toContain('20,000,000 bytes');
  });

  it('refuses an empty file and other file types', () => {
    expect(checkBulkFile({ name: 'empty.csv', size: 0 })).toMatch(/empty/);
    expect(checkBulkFile({ name: 'list.xls', size: 100 })).toMatch(/not a CSV, XLSX or TXT/);
    expect(checkBulkFile({ name: 'csv', size: 100 })).toMatch(/not a CSV, XLSX or TXT/);
  });
});

describe('getBulkFileKind / formatFileSize', () => {
  it('reads the kind from the last extension', () => {
    expect(getBulkFileKind('a.b.CSV')).toBe('csv');
    expect(getBulkFileKind('report.xlsx.exe')).toBeNull();
  });
  it('formats decimal sizes', () => {
    expect(formatFileSize(999)).toBe('999 B');
    expect(formatFileSize(1_500)).toBe('1.5 KB');
    expect(formatFileSize(20_000_000)).toBe('20 MB');
    expect(formatFileSize(100_000_000)).toBe('100 MB');
    expect(formatFileSize(2_345_678)).toBe('2.35 MB');
  });
});

describe('bulk file kinds per upload', () => {
  it('refuses TXT when only CSV and XLSX are taken, and says so', () => {
    expect(checkBulkFile({ name: 'people.txt', size: 10 }, ['csv', 'xlsx'])).toMatch(/not a CSV or XLSX file/);
    expect(checkBulkFile({ name: 'people.xlsx', size: 10 }, ['csv', 'xlsx'])).toBeNull();
    expect(getBulkFileKind('people.txt', ['csv', 'xlsx'])).toBeNull();
  });
  it('describes kinds and narrows the drop zone accept map', () => {
    expect(describeBulkFileKinds(['csv', 'xlsx', 'txt'])).toBe('CSV, XLSX or TXT');
    expect(describeBulkFileKinds(['csv'])).toBe('CSV');
    const accept = getBulkFileAccept(['csv', 'xlsx']);
    expect(accept['text/plain']).toBeUndefined();
    expect(accept['text/csv']).toEqual(['.csv']);
    expect(Object.values(accept).flat().sort()).toEqual(['.csv', '.csv', '.xlsx']);
  });
});
