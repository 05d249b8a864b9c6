import { type TBounceEvidence, type TUploadFileType, type TVerificationResult } from '@verilead/contracts';
import { overlayBounce, selectHardBounces } from '../../platform/bounces/read';
import type { TDb } from '../../platform/db/database';
import type { TCallerContext } from '../../platform/tenancy/context';
import { selectListOrg, selectListRowsPage } from './queries';
import { requireList } from './list-access';

/** A page of a list's rows by row number, with results (duplicates carry their first occurrence's result). */
export async function readListRowsPage(exec: TDb, listId: string, afterRow: number, limit: number): Promise<TExportRow[]> {
  const page = await selectListRowsPage(exec, listId, afterRow, limit);
  // An address that hard-bounced for the list's organisation reads invalid, with the bounce (issue 32).
  const orgId = page.length > 0 ? await selectListOrg(exec, listId) : null;
  const bounced = orgId ? await selectHardBounces(exec, orgId, page.filter((r) => r.result).map((r) => r.email)) : new Map<string, TBounceEvidence>();
  return page.map((r) => {
    const bounce = bounced.get(r.email.toLowerCase());
    const result = r.result && bounce ? overlayBounce(r.result as unknown as TVerificationResult, bounce) : null;
    return {
      row_number: r.row_number,
      email: r.email,
      duplicate: r.kind === 'duplicate',
      syntax_error: r.kind === 'syntax_error',
      status: result ? result.status : r.status,
      result: result ? (result as unknown as Record<string, unknown>) : r.result,
    };
  });
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
