import type { TDownloadKind } from '@verilead/contracts';
import type { TDb } from '../../platform/db/database';
import type { TFileStorage } from '../../platform/storage/storage';
import type { TDownloadRow } from './queries';

/** What a file is made of: rows (written as CSV or XLSX) or JSON lines written as they are read. */
export type TExportContent = { rows: AsyncIterable<string[]> } | { lines: AsyncIterable<string> };

/** Reads one kind of file's content; null when what it is made of is gone (the file is then cancelled). */
export type TExportSource = (exec: TDb, storage: TFileStorage, d: TDownloadRow, counter: { rows: number }) => Promise<TExportContent | null>;

/**
 * The kinds of file other features prepare through this job (prospects, finder results, the organisation's archive):
 * the composition root hands their sources in, so downloads never imports the features above it.
 */
export type TExportSources = Partial<Record<TDownloadKind, TExportSource>>;
