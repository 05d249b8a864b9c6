import type { TDownload, TDownloadFileType } from '@verilead/contracts';
import type { TDb } from '../../platform/db/database';
import type { TDeps } from '../../platform/deps';
import { throwNotFound } from '../../platform/errors/app-error';
import type { TCallerContext } from '../../platform/tenancy/context';
import { queueExportDownload, type TExportSource } from '../downloads';
import { countKnownPeople, selectListExportPage, selectPeopleForExport } from './export-queries';
import { getList } from './lists';
import type { TPersonRow } from './search-queries';
import { loadReveals, toPersonView } from './views';

/**
 * Prospect files (a list's leads, or chosen people) are prepared by the downloads feature's export job (kind
 * `prospects`) and served by its expiring links. A file holds the organisation's revealed contact data only.
 */

export const PROSPECT_EXPORT_COLUMNS = [
  'full_name', 'first_name', 'last_name', 'title', 'seniority', 'department', 'company', 'company_domain', 'industry', 'company_size',
  'city', 'region', 'country', 'linkedin_url', 'email', 'email_status', 'phone', 'phone_type',
];

function safeName(name: string): string {
  return name.replace(/[^\w.\- ]+/g, '_').trim().slice(0, 120) || 'prospects';
}

export async function requestProspectExport(
  deps: TDeps,
  ctx: TCallerContext,
  input: { list_id?: string; person_ids?: string[]; file_type: TDownloadFileType },
): Promise<TDownload> {
  let fileName = `prospects.${input.file_type}`;
  if (input.list_id) fileName = `${safeName((await getList(deps.database.db, ctx, input.list_id)).name)}.${input.file_type}`;
  if (input.person_ids) {
    const ids = [...new Set(input.person_ids)];
    const found = await countKnownPeople(deps.database.db, ids);
    if (found < ids.length) throwNotFound('Person');
  }
  return queueExportDownload(deps, {
    orgId: ctx.orgId,
    userId: ctx.userId,
    kind: 'prospects',
    listId: input.list_id ?? null,
    format: null,
    fileType: input.file_type,
    columns: [],
    params: input.person_ids ? { person_ids: [...new Set(input.person_ids)] } : {},
    state: 'queued',
    fileName,
  });
}

/** What the export job knows of a prospect download. */
export type TProspectDownload = { orgId: string; listId: string | null; params: Record<string, unknown> };

/** The file's rows (header first), a page at a time. Called by the downloads export job. */
export async function* prospectExportRows(exec: TDb, d: TProspectDownload, counter: { rows: number }): AsyncGenerator<string[]> {
  yield PROSPECT_EXPORT_COLUMNS;
  const personIds = Array.isArray(d.params.person_ids) ? (d.params.person_ids as string[]) : null;
  const PAGE = 500;
  for (let offset = 0; ; offset += PAGE) {
    let rows: TPersonRow[];
    if (d.listId) {
      rows = await selectListExportPage(exec, d.orgId, d.listId, offset, PAGE);
    } else {
      const ids = (personIds ?? []).slice(offset, offset + PAGE);
      rows = ids.length ? await selectPeopleForExport(exec, ids) : [];
    }
    const reveals = await loadReveals(
      exec,
      d.orgId,
      rows.map((r) => r.id),
    );
    for (const r of rows) {
      const v = toPersonView(r, reveals);
      counter.rows += 1;
      yield [
        v.full_name, v.first_name, v.last_name, v.title, v.seniority, v.department, v.company?.name ?? '', v.company?.domain ?? '', v.company?.industry ?? '',
        v.company?.size_range ?? '', v.city ?? '', v.region ?? '', v.country, v.linkedin_url ?? '',
        v.email_revealed ? (v.email ?? '') : '', v.email_status ?? '', v.phone_revealed ? (v.phone ?? '') : '', v.phone_revealed ? (v.phone_type ?? '') : '',
      ];
    }
    if (rows.length < PAGE) return;
  }
}

/** The downloads export job's source for prospect files (the composition root hands it to the job). */
export const prospectExportSource: TExportSource = async (exec, _storage, d, counter) => ({ rows: prospectExportRows(exec, d, counter) });
