import { randomUUID } from 'node:crypto';
import { type TIntegration, type TIntegrationImport, type TVerifyListRequest, ZVerifyListRequest } from '@verilead/contracts';
import { throwFieldError } from '../../platform/errors/app-error';
import type { TCallerContext } from '../../platform/tenancy/context';
import { requireAccount } from './accounts';
import { IMPORT_PAGE_JOB } from './import-pipeline';
import { toImportView } from './import-views';
import { getAdapter, openCredentials, platformLabel, toAppError, type TIntegrationRuntime, type TServiceDeps } from './platform-access';
import { insertImport } from './queries';

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
  const row = await deps.database.transaction(async (tx) => {
    const created = await insertImport(tx, {
      orgId: ctx.orgId,
      userId: ctx.userId,
      accountId: account.id,
      accountName: account.name,
      platform,
      remoteListId: list.id,
      remoteListName: list.name,
      remoteTotal: list.memberCount,
      verifyListId: randomUUID(),
      writeBack: body.write_back,
    });
    await deps.queue.enqueue(IMPORT_PAGE_JOB, { importId: created.id, page: 0 }, { tx, orgId: ctx.orgId, userId: ctx.userId });
    return created;
  });
  return toImportView(row);
}
