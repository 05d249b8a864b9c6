import { createReadStream, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { Transform, type Readable } from 'node:stream';
import { parse as parseCsvSync } from 'csv-parse/sync';
import type { TCorpusEntry } from '@verilead/mailworld';
import type { z } from 'zod';
import type { TDatabase } from '../../platform/db/database';
import { countDirectory, settleDirectory, upsertCompanies, upsertPeople } from './directory-store';
import { ZCompanyRecord, ZPersonRecord, type TCompanyRow, type TPersonRow } from './records';

export type TImportReport = {
  companies: number;
  people: number;
  /** Rows skipped, with their line (1 = the first line of the file, the CSV header included) and why. */
  bad: { line: number; message: string }[];
  /** People stored without a company because their company_external_id is unknown. */
  unknownCompanies: number;
};

const BATCH = 1_000;
const MAX_REPORTED_BAD = 1_000;

function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((i) => {
      const message = i.message.replace(/^Invalid input: /, '');
      return `${i.path.join('.') || 'row'} ${message.charAt(0).toLowerCase()}${message.slice(1)}`;
    })
    .join('; ');
}

/** A file the import cannot read at all (its CSV header row is broken): nothing of it is imported. */
export class DirectoryImportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DirectoryImportError';
  }
}

const CSV_LINE_ERRORS: Record<string, string> = {
  CSV_QUOTE_NOT_CLOSED: 'a quoted field is not closed on its line',
  INVALID_OPENING_QUOTE: 'a quote inside a field that does not start with one',
  CSV_INVALID_CLOSING_QUOTE: 'text after the closing quote of a field',
};

/** One CSV line's fields, or why it is broken (an unterminated or stray quote). */
function parseCsvLine(text: string): string[] | { error: string } {
  // Most lines have no quote at all: split them directly (the parser costs ~0.1 ms a line, a million lines 100 s).
  if (!text.includes('"')) return text.split(',').map((f) => f.trim());
  try {
    const rows = parseCsvSync(text, { relax_column_count: true, trim: true }) as string[][];
    return rows[0] ?? [];
  } catch (err) {
    const code = (err as { code?: string }).code ?? '';
    return { error: `is not a valid CSV row: ${CSV_LINE_ERRORS[code] ?? 'it could not be read'}` };
  }
}

/**
 * The rows of a CSV (header row names the columns) or NDJSON file, each with its line number. A record is one line in
 * both formats (a CSV field may not hold a line break), so a broken line (bad JSON, an unterminated quote) is one bad
 * row: it is reported with its line and the next line is read as the next record.
 */
async function* readRecords(source: Readable, format: 'csv' | 'ndjson'): AsyncGenerator<{ line: number; value: unknown } | { line: number; error: string }> {
  let line = 0;
  let header: string[] | null = null;
  for await (const raw of createInterface({ input: source, crlfDelay: Infinity })) {
    line += 1;
    const text = line === 1 ? raw.replace(/^\uFEFF/, '') : raw;
    if (text.trim() === '') continue;
    if (format === 'ndjson') {
      try {
        yield { line, value: JSON.parse(text) as unknown };
      } catch {
        yield { line, error: 'is not valid JSON' };
      }
      continue;
    }
    const fields = parseCsvLine(text);
    if (!Array.isArray(fields)) {
      if (!header) throw new DirectoryImportError(`The header row (line ${line}) ${fields.error}; nothing was imported.`);
      yield { line, error: fields.error };
      continue;
    }
    if (!header) {
      header = fields;
      continue;
    }
    const record: Record<string, string> = {};
    header.forEach((name, i) => {
      if (i < fields.length) record[name] = fields[i]!;
    });
    yield { line, value: record };
  }
}

/**
 * Imports a CSV or NDJSON file of companies and people (column/field `record`: company or person), streamed, in
 * batches of 1,000; an upsert per external id, so a rerun changes nothing. Companies must come before their people
 * (or exist already). Bad rows are skipped and reported with their line.
 */
export async function importDirectory(
  database: TDatabase,
  source: Readable,
  format: 'csv' | 'ndjson',
  onProgress: (report: TImportReport) => void = () => undefined,
): Promise<TImportReport> {
  const report: TImportReport = { companies: 0, people: 0, bad: [], unknownCompanies: 0 };
  let companies: TCompanyRow[] = [];
  let people: TPersonRow[] = [];
  const flushCompanies = async () => {
    if (companies.length === 0) return;
    const batch = companies;
    companies = [];
    await database.transaction((tx) => upsertCompanies(tx, batch));
    report.companies += batch.length;
  };
  const flushPeople = async () => {
    if (people.length === 0) return;
    const batch = people;
    people = [];
    const res = await database.transaction((tx) => upsertPeople(tx, batch));
    report.people += batch.length;
    report.unknownCompanies += res.unknownCompanies.length;
    onProgress(report);
  };
  const bad = (line: number, message: string) => {
    if (report.bad.length < MAX_REPORTED_BAD) report.bad.push({ line, message });
  };
  for await (const row of readRecords(source, format)) {
    if ('error' in row) {
      bad(row.line, row.error);
      continue;
    }
    const value = row.value as Record<string, unknown> | null;
    const kind = value && typeof value === 'object' ? value.record : undefined;
    if (kind === 'company') {
      const parsed = ZCompanyRecord.safeParse(value);
      if (!parsed.success) bad(row.line, describeIssues(parsed.error));
      else {
        companies.push(parsed.data);
        if (companies.length >= BATCH) await flushCompanies();
      }
    } else if (kind === 'person') {
      const parsed = ZPersonRecord.safeParse(value);
      if (!parsed.success) bad(row.line, describeIssues(parsed.error));
      else {
        await flushCompanies();
        people.push(parsed.data);
        if (people.length >= BATCH) await flushPeople();
      }
    } else {
      bad(row.line, 'record must be "company" or "person"');
    }
  }
  await flushCompanies();
  await flushPeople();
  await settleDirectory(database);
  onProgress(report);
  return report;
}

/** A file's format from its name. */
export function importFormatOf(path: string): 'csv' | 'ndjson' | null {
  if (/\.csv$/i.test(path)) return 'csv';
  if (/\.(ndjson|jsonl)$/i.test(path)) return 'ndjson';
  return null;
}

/** Opens a file for import with a byte counter (for the progress bar). */
export function openImportFile(path: string): { stream: Readable; size: number; read: () => number } {
  const size = statSync(path).size;
  let read = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      read += chunk.length;
      done(null, chunk);
    },
  });
  return { stream: createReadStream(path).pipe(counter), size, read: () => read };
}

/** Generates and stores a demo directory (people in batches, so a million never sit in memory). */
export async function seedDirectory(
  database: TDatabase,
  opts: { companies: number; people: number; seed: number },
  onProgress: (people: number) => void = () => undefined,
): Promise<void> {
  // The generator (faker's name data, ~35 MB) is loaded only when a directory is generated.
  const { generateCompanies, generatePeople } = await import('./generator');
  const companies = generateCompanies(opts.companies, opts.seed);
  for (let i = 0; i < companies.length; i += BATCH) {
    const rows = companies.slice(i, i + BATCH).map((c) => ZCompanyRecord.parse(c));
    await database.transaction((tx) => upsertCompanies(tx, rows));
  }
  let batch: TPersonRow[] = [];
  let done = 0;
  for (const p of generatePeople(opts.people, companies, opts.seed)) {
    batch.push(ZPersonRecord.parse(p));
    if (batch.length >= BATCH) {
      const rows = batch;
      batch = [];
      await database.transaction((tx) => upsertPeople(tx, rows));
      done += rows.length;
      onProgress(done);
    }
  }
  if (batch.length > 0) await database.transaction((tx) => upsertPeople(tx, batch));
  await settleDirectory(database);
}

/** `npm start`: seeds the demo directory when the directory is empty (an operator's own data is never touched). */
export async function seedDemoDirectoryIfEmpty(database: TDatabase, print: (line: string) => void = (l) => console.log(l)): Promise<boolean> {
  const { people } = await countDirectory(database.db);
  if (people > 0) return false;
  const started = Date.now();
  const { DEMO_DIRECTORY } = await import('./generator');
  await seedDirectory(database, DEMO_DIRECTORY);
  print(`Seeded the demo prospect directory: ${DEMO_DIRECTORY.people.toLocaleString('en-US')} people at ${DEMO_DIRECTORY.companies.toLocaleString('en-US')} companies (${((Date.now() - started) / 1000).toFixed(1)} s).`);
  return true;
}

/** The demo directory's mailboxes for the demo mail world; faker's data is loaded only when this is called. */
export async function loadDemoDirectoryCorpus(): Promise<TCorpusEntry[]> {
  return (await import('./generator')).demoDirectoryCorpus();
}
