import { randomUUID } from 'node:crypto';
import { type TIntegration, type TIntegrationImport, type TLeadsVerifyRequest, type TVerifyListRequest, ZLeadsVerifyRequest, ZVerifyListRequest } from '@verilead/contracts';
import { startSourceRun } from '../../platform/bulk-lists/lifecycle';
import { throwFieldError } from '../../platform/errors/app-error';
import type { TCallerContext } from '../../platform/tenancy/context';
import { getList } from '../prospects';
import { requireAccount } from './accounts';
import { IMPORT_PAGE_JOB } from './import-pipeline';
import { toImportView } from './import-views';
import { getAdapter, openCredentials, platformLabel, toAppError, type TIntegrationRuntime, type TServiceDeps } from './platform-access';
import { countLeadEmails } from './leads-queries';
import { importRuns, type TImportInsert } from './queries';

/** POST /integration/account/{integration}/verify_list: starts the chunked import of a platform list; verification and write-back follow. */
export async function startListImport(deps: TServiceDeps, rt: TIntegrationRuntime, ctx: TCallerContext, platform: TIntegration, input: TVerifyListRequest): Promise<TIntegrationImport> {
  const body = ZVerifyListRequest.parse(input);
  const account = await requireAccount(deps.database.db, ctx, platform, body.account_id);
  let lists;
  try {
    lists = await (await getAdapter(rt, platform, openCredentials(rt.config, account.credentials))).listLists();
  } catch (err) {
    throw toAppError(platform, err);
  }
  const list = lists.find((l) => l.id === body.list_id);
  if (!list) throwFieldError('list_id', `This list was not found in the ${platformLabel(platform)} account "${account.name}"`);
  return beginImport(deps, ctx, {
    accountId: account.id,
    accountName: account.name,
    platform,
    remoteListId: list.id,
    remoteListName: list.name,
    remoteTotal: list.memberCount,
    writeBack: body.write_back,
  });
}

/** POST /integration/leads/verify_list: imports a prospect list's revealed e-mails as a verifier list (source `leads`) through the chunked import job. */
export async function startLeadsImport(deps: TServiceDeps, ctx: TCallerContext, input: TLeadsVerifyRequest): Promise<TIntegrationImport> {
  const body = ZLeadsVerifyRequest.parse(input);
  const list = await getList(deps.database.db, ctx, body.list_id);
  const n = await countLeadEmails(deps.database.db, ctx.orgId, list.id);
  return beginImport(deps, ctx, {
    accountId: null,
    accountName: 'Prospect lists',
    platform: 'leads',
    remoteListId: list.id,
    remoteListName: list.name,
    remoteTotal: n,
    writeBack: { unsubscribe: false, append: true },
  });
}

/** An import's run on the bulk-list kernel: its row (the verifier list's id chosen up front) and its first page job, in one transaction. */
async function beginImport(deps: TServiceDeps, ctx: TCallerContext, values: Omit<TImportInsert, 'orgId' | 'userId' | 'verifyListId'>): Promise<TIntegrationImport> {
  const row = await deps.database.transaction((tx) =>
    startSourceRun(tx, deps.queue, importRuns, { ...values, orgId: ctx.orgId, userId: ctx.userId, verifyListId: randomUUID() }, { name: IMPORT_PAGE_JOB, payload: (r) => ({ importId: r.id, page: 0 }) }),
  );
  return toImportView(row);
}
