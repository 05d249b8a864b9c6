import type { TConfig } from '../../config';
import { openDatabase } from '../../platform/db/database';
import { DirectoryImportError, importDirectory, importFormatOf, openImportFile, seedDirectory, type TImportReport } from './directory-import';

function bar(done: number, total: number): string {
  const pct = total > 0 ? Math.min(100, Math.floor((done * 100) / total)) : 100;
  const filled = Math.round(pct / 4);
  return `[${'#'.repeat(filled)}${'.'.repeat(25 - filled)}] ${String(pct).padStart(3)}%`;
}

/**
 * `npm run ops -- import-directory --file f` and `seed-directory`: open the database directly (stop a PGlite server
 * first: PGlite allows one process), write the directory, print a progress bar and the bad rows with their lines.
 */
export async function runDirectoryCommand(
  config: TConfig,
  command: 'import-directory' | 'seed-directory',
  values: { file?: string | boolean; people?: string | boolean; companies?: string | boolean; seed?: string | boolean },
  usage: string,
): Promise<number> {
  const file = typeof values.file === 'string' ? values.file : undefined;
  const format = file ? importFormatOf(file) : null;
  if (command === 'import-directory' && (!file || !format)) {
    console.error(file ? 'The file must end in .csv, .ndjson or .jsonl' : usage);
    return 2;
  }
  const database = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: config.pgliteDir });
  try {
    await database.migrate();
    const started = Date.now();
    if (command === 'seed-directory') {
      // The generator (faker's data) loads only here: this command is reached through the feature's public face.
      const { DEMO_DIRECTORY } = await import('./generator');
      const n = (v: unknown, d: number) => (typeof v === 'string' && Number.isInteger(Number(v)) && Number(v) > 0 ? Number(v) : d);
      const opts = { people: n(values.people, DEMO_DIRECTORY.people), companies: n(values.companies, DEMO_DIRECTORY.companies), seed: n(values.seed, DEMO_DIRECTORY.seed) };
      await seedDirectory(database, opts, (done) => process.stderr.write(`\r${bar(done, opts.people)} ${done.toLocaleString('en-US')} people`));
      process.stderr.write('\n');
      console.log(`Seeded ${opts.people.toLocaleString('en-US')} people at ${opts.companies.toLocaleString('en-US')} companies in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
      return 0;
    }
    const input = openImportFile(file!);
    let report: TImportReport;
    try {
      report = await importDirectory(database, input.stream, format!, (r) =>
        process.stderr.write(`\r${bar(input.read(), input.size)} ${r.companies.toLocaleString('en-US')} companies, ${r.people.toLocaleString('en-US')} people`),
      );
    } catch (err) {
      if (!(err instanceof DirectoryImportError)) throw err;
      console.error(err.message);
      return 1;
    }
    process.stderr.write('\n');
    const seconds = (Date.now() - started) / 1000;
    const rows = report.companies + report.people;
    console.log(`Imported ${report.companies.toLocaleString('en-US')} companies and ${report.people.toLocaleString('en-US')} people in ${seconds.toFixed(1)} s (${Math.round(rows / Math.max(seconds, 0.001)).toLocaleString('en-US')} rows/s).`);
    if (report.unknownCompanies > 0) console.log(`${report.unknownCompanies} people name an unknown company_external_id and were stored without a company.`);
    if (report.bad.length > 0) {
      console.log(`${report.bad.length} bad row(s) skipped:`);
      for (const b of report.bad) console.log(`  line ${b.line}: ${b.message}`);
    }
    return report.bad.length > 0 ? 1 : 0;
  } finally {
    await database.close();
  }
}
