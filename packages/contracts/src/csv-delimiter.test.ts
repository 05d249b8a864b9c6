import { describe, expect, it } from 'vitest';
import { detectCsvDelimiter } from './csv-delimiter';

describe('detectCsvDelimiter', () => {
  it('keeps one delimiter per file: a semicolon inside a comma file is data', () => {
    expect(detectCsvDelimiter('name,email\nSmith; John,john@x.test\nDoe; Jane,jane@x.test\n')).toBe(',');
  });
  it('finds semicolons, tabs and pipes, and ignores delimiters inside quotes', () => {
    expect(detectCsvDelimiter('name;email\n"Doe, Jane";jane@x.test\n"Roe, Rick";rick@x.test\n')).toBe(';');
    expect(detectCsvDelimiter('name\temail\nJane\tjane@x.test\n')).toBe('\t');
    expect(detectCsvDelimiter('name|email\nJane|jane@x.test\n')).toBe('|');
    expect(detectCsvDelimiter('\uFEFFemail\na@x.test\nb@x.test\n')).toBe(',');
  });
});
