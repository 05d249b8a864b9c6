import { type TUploadFileType } from '@verilead/contracts';
import type { TDb } from '../../platform/db/database';
import type { TCallerContext } from '../../platform/tenancy/context';
import { selectListRowsPage } from './queries';
import { requireList } from './list-access';

/** A page of a list's rows by row number, with results (duplicates carry their first occurrence's result). */
export async function readListRowsPage(exec: TDb, listId: string, afterRow: number, limit: number): Promise<TExportRow[]> {
  const page = await selectListRowsPage(exec, listId, afterRow, limit);
  return page.map((r) => ({ row_number: r.row_number, email: r.email, duplicate: r.kind === 'duplicate', syntax_error: r.kind === 'syntax_error', status: r.status, result: r.result }));
}

/** A list of the caller's organisation for an export (404 otherwise). */
export async function getListForExport(exec: TDb, ctx: Pick<TCallerContext, 'orgId'> & Partial<Pick<TCallerContext, 'userId' | 'role'>>, listId: string) {
  const list = await requireList(exec, ctx, listId);
  return {
    id: list.id,
    name: list.name,
    fileName: list.fileName,
    fileType: list.fileType as TUploadFileType,
    storageKey: list.storageKey,
    analysisState: list.analysisState,
    state: list.state,
    hasHeader: list.hasHeader,
    emailColumn: list.emailColumn,
    fileDeletedAt: list.fileDeletedAt,
    resultsDeletedAt: list.resultsDeletedAt,
  };
}

export type TExportRow = {
  row_number: number;
  email: string;
  duplicate: boolean;
  syntax_error: boolean;
  status: string | null;
  result: Record<string, unknown> | null;
};

/** Every row of a list in file order, with results (duplicates carry their first occurrence's result). */
export async function* iterateListRows(exec: TDb, listId: string): AsyncGenerator<TExportRow> {
  let after = 0;
  for (;;) {
    const page = await readListRowsPage(exec, listId, after, 2_000);
    if (page.length === 0) return;
    yield* page;
    after = page[page.length - 1]!.row_number;
  }
}
