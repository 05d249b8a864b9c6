import { createOutboundClient, outboundPolicyOf } from '../../platform/outbound-http/client';
import { randomUUID } from 'node:crypto';
import {
  INTEGRATION_CATALOG,
  type TConnectAccountRequest,
  type TIntegration,
  type TIntegrationImport,
  type TLinkedAccount,
  type TRemoteList,
  type TVerifyListRequest,
  ZConnectAccountRequest,
  ZVerifyListRequest,
} from '@verilead/contracts';
import type { TConfig } from '../../config';
import type { TDb } from '../../platform/db/database';
import type { TDeps } from '../../platform/deps';
import { AppError, isAppError, throwFieldError, throwNotFound } from '../../platform/errors/app-error';
import { decryptSecret, encryptSecret } from '../../platform/secrets/secret-box';
import type { TFileStorage } from '../../platform/storage/storage';
import type { TCallerContext } from '../../platform/tenancy/context';
import { recordActivity, type TRunningJobActivity } from '../activities';
import { ensureListVerification, getProgressStatus, readListRowsPage, createSourcedList } from '../email-verifier';
import { RateLimitedError, RemoteAuthError, RemoteError } from './adapters/http';
import { ADAPTERS } from './adapters/registry';
import { createLeadsAdapter } from './leads-source';
import { isOwnLocalFake, oauthClientOf } from './oauth/providers';
import { getTestModeBaseUrl } from './test-mode';
import type { TAdapterContext, TCredentials, TIntegrationAdapter, TWriteBackItem } from './adapters/types';
import {
  countMembers,
  deleteAccount,
  insertAccount,
  insertImport,
  insertMembers,
  selectAccount,
  selectAccountById,
  selectAccounts,
  selectImport,
  selectImportForUpdate,
  selectImports,
  selectRunningImports,
  selectKnownRemoteIds,
  selectMembersPage,
  updateImport,
  type TAccountRow,
  type TImportRow,
} from './queries';

export const IMPORT_PAGE_JOB = 'integrations.import_page';
export const IMPORT_FINISH_JOB = 'integrations.import_finish';
export const ADVANCE_JOB = 'integrations.advance';
export const WRITE_BACK_JOB = 'integrations.write_back';

/** Members written back per chunk job. */
export const WRITE_BACK_CHUNK = 250;
/** How often a waiting import looks at its verification again. */
export const ADVANCE_DELAY_MS = 2_000;

/** What the integration services need besides the database and queue. */
export type TIntegrationRuntime = {
  config: TConfig;
  storage: TFileStorage;
  /** Adapter tuning (tests: shorter in-process waits). */
  adapterOptions?: Pick<TAdapterContext, 'maxThrottleWaits' | 'maxInlineWaitMs' | 'pageSize'>;
};
type TServiceDeps = Pick<TDeps, 'database' | 'queue'>;

/** A source's name as users see it (`leads`: this product's prospect lists). */
const label = (p: string) => INTEGRATION_CATALOG[p as TIntegration]?.label ?? (p === 'leads' ? 'Leads' : p);

function sealCredentials(config: TConfig, c: TCredentials): string {
  return encryptSecret(config.appSecret, JSON.stringify(c), 'integration-credentials');
}
function openCredentials(config: TConfig, box: string): TCredentials {
  return JSON.parse(decryptSecret(config.appSecret, box, 'integration-credentials')) as TCredentials;
}

/** The adapter of a platform with these credentials, or 400 when the platform cannot be connected. */
export async function getAdapter(rt: TIntegrationRuntime, platform: TIntegration, credentials: TCredentials): Promise<TIntegrationAdapter> {
  const info = INTEGRATION_CATALOG[platform];
  const load = ADAPTERS[platform];
  if (!info.available || !load) throw new AppError(400, 'validation_failed', info.unavailable_reason ?? `${info.label} cannot be connected yet`);
  const oauthClient = oauthClientOf(rt.config, platform);
  // Test mode: a key-based platform without a configured base URL is answered by its local fake (test-mode.ts).
  const testBase = await getTestModeBaseUrl(rt.config, platform, credentials);
  const baseUrls = testBase ? { ...rt.config.integrationBaseUrls, [platform]: testBase } : rt.config.integrationBaseUrls;
  // Loopback addresses need ALLOW_PRIVATE_DESTINATIONS, except the test-mode fakes this server started itself (exact base URL).
  const allowPrivate = testBase !== null || isOwnLocalFake(rt.config, platform, credentials.oauth);
  const outbound = createOutboundClient(outboundPolicyOf(rt.config, { allowPrivate }));
  const make = await load();
  return make({ credentials, baseUrls, outbound, ...(oauthClient ? { oauthClient } : {}), ...rt.adapterOptions });
}

/** A platform failure as a readable 4xx (never a 500). */
export function toAppError(platform: TIntegration, err: unknown, field?: string): AppError {
  if (isAppError(err)) return err;
  if (err instanceof RemoteAuthError) {
    const message = `${label(platform)} did not accept these credentials (${err.message}). Please check them and try again.`;
    return new AppError(400, 'validation_failed', message, field ? { reasons: [{ field, location: 'body', messages: [message] }] } : {});
  }
  if (err instanceof RateLimitedError) {
    return new AppError(429, 'rate_limited', `${label(platform)} is busy; please try again in ${Math.ceil(err.retryAfterMs / 1000)} seconds.`, { additional_info: { retry_after: Math.ceil(err.retryAfterMs / 1000) } });
  }
  if (err instanceof RemoteError) return new AppError(400, 'validation_failed', `${label(platform)} could not be used: ${err.message}`);
  throw err;
}

function toAccountView(row: TAccountRow): TLinkedAccount {
  return { id: row.id, integration: row.platform as TIntegration, name: row.name, remote_account: row.remoteAccount, created_at: row.createdAt.toISOString() };
}

export function toImportView(row: TImportRow): TIntegrationImport {
  return {
    id: row.id,
    integration: row.platform as TIntegrationImport['integration'],
    account_id: row.accountId,
    account_name: row.accountName,
    remote_list_id: row.remoteListId,
    remote_list_name: row.remoteListName,
    state: row.state as TIntegrationImport['state'],
    imported: row.imported,
    total: row.remoteTotal,
    verify_list_id: row.verifyListCreated ? row.verifyListId : null,
    written_back: row.writtenBack,
    write_back: row.writeBack,
    error: row.error,
    created_at: row.createdAt.toISOString(),
  };
}

// ---------- accounts ----------

export async function listLinkedAccounts(exec: TDb, ctx: TCallerContext): Promise<{ items: TLinkedAccount[] }> {
  return { items: (await selectAccounts(exec, ctx.orgId)).map(toAccountView) };
}

export async function listPlatformAccounts(exec: TDb, ctx: TCallerContext, platform: TIntegration): Promise<{ items: TLinkedAccount[] }> {
  return { items: (await selectAccounts(exec, ctx.orgId, platform)).map(toAccountView) };
}

/** POST /integration/account/{integration}: checks the credentials with the platform, then stores them encrypted. */
export async function connectAccount(deps: TServiceDeps, rt: TIntegrationRuntime, ctx: TCallerContext, platform: TIntegration, input: TConnectAccountRequest): Promise<TLinkedAccount> {
  const body = ZConnectAccountRequest.parse(input);
  const info = INTEGRATION_CATALOG[platform];
  if (!info.available) throw new AppError(400, 'validation_failed', info.unavailable_reason ?? `${info.label} cannot be connected yet`);
  if (info.oauth && info.fields.length === 0) throw new AppError(400, 'validation_failed', `${info.label} connects through its own sign-in page: use "Connect with ${info.label}"`);
  if (info.requires_paid_plan_confirmation && body.paid_plan_confirmed !== true) {
    throwFieldError('paid_plan_confirmed', `Please confirm that this ${info.label} account has a paid plan`);
  }
  if (info.fields.some((f) => f.key === 'api_url') && !body.api_url) throwFieldError('api_url', 'Please enter the API URL');
  const accountIdField = info.fields.find((f) => f.key === 'account_id');
  if (accountIdField && !body.account_id) throwFieldError('account_id', `Please enter the ${accountIdField.label}`);
  const regionField = info.fields.find((f) => f.key === 'region');
  if (regionField && !regionField.options?.some((o) => o.value === body.region)) throwFieldError('region', `Please choose the region of this ${info.label} account`);
  await requireFreeName(deps.database.db, ctx, platform, body.name);
  const credentials: TCredentials = {
    apiKey: body.api_key,
    ...(body.api_url ? { apiUrl: body.api_url } : {}),
    ...(accountIdField && body.account_id ? { accountId: body.account_id } : {}),
    ...(regionField && body.region ? { region: body.region } : {}),
  };
  return saveVerifiedAccount(deps, rt, ctx, platform, body.name, credentials, 'api_key');
}

/** 400 on `name` when the organisation already has an account of this platform with that name (case-insensitive). */
export async function requireFreeName(exec: TDb, ctx: TCallerContext, platform: TIntegration, name: string): Promise<void> {
  const taken = (await selectAccounts(exec, ctx.orgId, platform)).some((a) => a.name.toLowerCase() === name.toLowerCase());
  if (taken) throwFieldError('name', `You already have a ${label(platform)} account named "${name}"; please choose another name`);
}

/** Checks the credentials with the platform, then stores them encrypted (API key and OAuth connections alike). */
export async function saveVerifiedAccount(deps: TServiceDeps, rt: TIntegrationRuntime, ctx: TCallerContext, platform: TIntegration, name: string, credentials: TCredentials, field?: string): Promise<TLinkedAccount> {
  let accountLabel: string;
  try {
    ({ accountLabel } = await (await getAdapter(rt, platform, credentials)).verifyCredentials());
  } catch (err) {
    throw toAppError(platform, err, field);
  }
  const row = await deps.database.transaction(async (tx) => {
    const inserted = await insertAccount(tx, { orgId: ctx.orgId, userId: ctx.userId, platform, name, credentials: sealCredentials(rt.config, credentials), remoteAccount: accountLabel });
    if (!inserted) throwFieldError('name', `You already have a ${label(platform)} account named "${name}"; please choose another name`);
    return inserted;
  });
  return toAccountView(row);
}

async function requireAccount(exec: TDb, ctx: TCallerContext, platform: TIntegration, accountId: string): Promise<TAccountRow> {
  const row = await selectAccount(exec, ctx.orgId, platform, accountId);
  if (!row) throwNotFound('Account');
  return row;
}

export async function removeAccount(deps: TServiceDeps, ctx: TCallerContext, platform: TIntegration, accountId: string): Promise<{ message: string }> {
  const row = await requireAccount(deps.database.db, ctx, platform, accountId);
  await deleteAccount(deps.database.db, ctx.orgId, row.id);
  return { message: `The ${label(platform)} account "${row.name}" was disconnected` };
}

/** GET /integration/account/{integration}/{x}: the account and the lists it has on the platform. */
export async function getAccountLists(exec: TDb, rt: TIntegrationRuntime, ctx: TCallerContext, platform: TIntegration, accountId: string): Promise<{ account: TLinkedAccount; lists: TRemoteList[] }> {
  const row = await requireAccount(exec, ctx, platform, accountId);
  try {
    const lists = await (await getAdapter(rt, platform, openCredentials(rt.config, row.credentials))).listLists();
    return { account: toAccountView(row), lists: lists.map((l) => ({ id: l.id, name: l.name, member_count: l.memberCount })) };
  } catch (err) {
    throw toAppError(platform, err);
  }
}

// ---------- import → verify → write back ----------

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
  if (!list) throwFieldError('list_id', `This list was not found in the ${label(platform)} account "${account.name}"`);
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

/** Ends an import (completed, failed or cancelled) and records it in the importer's Activities. */
async function endImport(exec: TDb, row: TImportRow, values: { state: 'completed' | 'failed' | 'cancelled'; error?: string }): Promise<void> {
  await updateImport(exec, row.id, values);
  const fresh = (await selectImport(exec, row.id)) ?? row;
  const what = `"${row.remoteListName}" from ${label(row.platform as TIntegration)}`;
  const metadata = { feature: 'integrations', import_id: row.id, integration: row.platform, imported: fresh.imported, written_back: fresh.writtenBack };
  if (values.state === 'failed') {
    await recordActivity(exec, { orgId: row.orgId, userId: row.userId, type: 'failed', description: `Syncing ${what} failed: ${values.error ?? 'unknown error'}`, metadata: { ...metadata, job: 'sync' } });
    return;
  }
  const description =
    values.state === 'cancelled'
      ? `Cancelled syncing ${what}: ${values.error ?? ''}`.trim()
      : `Synced ${what}: ${fresh.imported} contacts imported, ${fresh.writtenBack} written back`;
  await recordActivity(exec, { orgId: row.orgId, userId: row.userId, type: 'sync', description, metadata: { ...metadata, cancelled: values.state === 'cancelled' } });
}

/** The member's imports still running (importing, verifying or writing back), as sync activities with their progress. */
export async function listRunningJobActivities(exec: TDb, who: { orgId: string; userId: string }): Promise<TRunningJobActivity[]> {
  const rows = await selectRunningImports(exec, who);
  const percent = (done: number, of: number | null) => (of && of > 0 ? Math.min(100, Math.floor((done * 100) / of)) : null);
  return rows.map((row) => {
    const queued = row.state === 'importing' && row.pagesDone === 0;
    return {
      key: `sync:${row.id}`,
      type: 'sync',
      status: queued ? 'queued' : 'in_progress',
      progress: queued ? null : row.state === 'importing' ? percent(row.imported, row.remoteTotal) : row.state === 'writing_back' ? percent(row.writtenBack, row.imported) : null,
      description: `"${row.remoteListName}" from ${label(row.platform as TIntegration)} (${row.state.replace('_', ' ')})`,
      metadata: { feature: 'integrations', import_id: row.id, integration: row.platform, phase: row.state, verify_list_id: row.verifyListId },
      since: row.updatedAt,
    };
  });
}

export async function listImports(exec: TDb, ctx: TCallerContext): Promise<{ items: TIntegrationImport[] }> {
  return { items: (await selectImports(exec, ctx.orgId, 50)).map(toImportView) };
}

type TJobCtx = { attempt: number; maxAttempts: number };

/** The adapter of an import's account (null when the account was disconnected: the import fails). */
async function adapterOfImport(deps: TServiceDeps, rt: TIntegrationRuntime, row: TImportRow): Promise<TIntegrationAdapter | null> {
  if (row.platform === 'leads') return createLeadsAdapter(deps.database.db, row.orgId, rt.adapterOptions?.pageSize);
  const account = row.accountId ? await selectAccountById(deps.database.db, row.accountId) : null;
  if (!account) {
    await endImport(deps.database.db, row, { state: 'failed', error: 'The account was disconnected' });
    return null;
  }
  return getAdapter(rt, row.platform as TIntegration, openCredentials(rt.config, account.credentials));
}

/**
 * Runs a step that talks to the platform: a throttling signal re-queues the same job after the wait the platform
 * asked for; rejected credentials fail the import; other errors are retried, and fail it on the last attempt.
 */
async function withPlatform(deps: TServiceDeps, row: TImportRow, job: TJobCtx, retry: { name: string; payload: () => unknown }, step: () => Promise<void>): Promise<void> {
  try {
    await step();
  } catch (err) {
    if (err instanceof RateLimitedError) {
      await deps.queue.enqueue(retry.name, retry.payload(), { orgId: row.orgId, userId: row.userId, delayMs: err.retryAfterMs });
      return;
    }
    const name = label(row.platform as TIntegration);
    if (err instanceof RemoteAuthError) {
      await endImport(deps.database.db, row, { state: 'failed', error: `${name} no longer accepts this account's credentials; please connect it again` });
      return;
    }
    // A 4xx other than throttling will answer the same on a retry (e.g. HubSpot refuses edits of a DYNAMIC list).
    const refused = err instanceof RemoteError && err.httpStatus >= 400 && err.httpStatus < 500;
    if (refused || job.attempt >= job.maxAttempts) {
      await endImport(deps.database.db, row, { state: 'failed', error: `${name} refused a request: ${(err as Error).message}` });
      return;
    }
    throw err;
  }
}

/**
 * One page of an import: reads the page at the stored cursor, then in one transaction stores its new members,
 * moves the cursor and queues the next page (or the finish). A page whose number is already done is skipped, so
 * a job run twice (a killed worker) stores nothing twice.
 */
export async function runImportPage(deps: TServiceDeps, rt: TIntegrationRuntime, p: { importId: string; page: number }, job: TJobCtx): Promise<void> {
  const row = await selectImport(deps.database.db, p.importId);
  if (!row || row.state !== 'importing' || row.pagesDone !== p.page) return;
  const adapter = await adapterOfImport(deps, rt, row);
  if (!adapter) return;
  await withPlatform(deps, row, job, { name: IMPORT_PAGE_JOB, payload: () => p }, async () => {
    const page = await adapter.listMembers(row.remoteListId, row.cursor);
    await deps.database.transaction(async (tx) => {
      const current = await selectImportForUpdate(tx, row.id);
      if (!current || current.state !== 'importing' || current.pagesDone !== p.page) return;
      const candidates = page.members.filter((m) => m.email.trim() !== '');
      const known = await selectKnownRemoteIds(tx, row.id, candidates.map((m) => m.id));
      const fresh = candidates.filter((m) => !known.has(m.id) && (known.add(m.id), true));
      await insertMembers(
        tx,
        fresh.map((m, i) => ({ importId: row.id, seq: current.imported + i + 1, remoteId: m.id, email: m.email.trim().slice(0, 500), firstName: m.firstName.slice(0, 200), lastName: m.lastName.slice(0, 200) })),
      );
      await updateImport(tx, row.id, { imported: current.imported + fresh.length, pagesDone: p.page + 1, cursor: page.nextCursor });
      if (page.nextCursor) await deps.queue.enqueue(IMPORT_PAGE_JOB, { importId: row.id, page: p.page + 1 }, { tx, orgId: row.orgId, userId: row.userId });
      else await deps.queue.enqueue(IMPORT_FINISH_JOB, { importId: row.id }, { tx, orgId: row.orgId, userId: row.userId });
    });
  });
}

const csvCell = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

async function* membersCsv(exec: TDb, importId: string): AsyncGenerator<string> {
  yield 'email,first_name,last_name\n';
  for (let after = 0; ; ) {
    const page = await selectMembersPage(exec, importId, after, 5_000);
    if (page.length === 0) return;
    yield page.map((m) => `${csvCell(m.email)},${csvCell(m.firstName)},${csvCell(m.lastName)}\n`).join('');
    after = page[page.length - 1]!.seq;
  }
}

/** After the last page: the members become a verifier list (source = the platform), analysed like an upload. Idempotent. */
export async function runImportFinish(deps: TServiceDeps, rt: TIntegrationRuntime, p: { importId: string }): Promise<void> {
  const row = await selectImport(deps.database.db, p.importId);
  if (!row || row.state !== 'importing') return;
  if ((await countMembers(deps.database.db, row.id)) === 0) {
    await endImport(deps.database.db, row, { state: 'completed', error: 'The list has no contacts to verify' });
    return;
  }
  const storageKey = `uploads/${row.orgId}/${row.verifyListId}`;
  const { size } = await rt.storage.write(storageKey, membersCsv(deps.database.db, row.id));
  const name = `${row.remoteListName} (${label(row.platform as TIntegration)})`;
  await createSourcedList(deps, { orgId: row.orgId, userId: row.userId }, { listId: row.verifyListId, name, fileName: `${name}.csv`, source: row.platform, storageKey, sizeBytes: size });
  await deps.database.transaction(async (tx) => {
    const current = await selectImportForUpdate(tx, row.id);
    if (!current || current.state !== 'importing') return;
    await updateImport(tx, row.id, { state: 'verifying', verifyListCreated: 1 });
    await deps.queue.enqueue(ADVANCE_JOB, { importId: row.id }, { tx, orgId: row.orgId, userId: row.userId });
  });
}

/** The importer's context, as auto-pilot builds it: their credits and limits pay for the verification; their own list is visible to them whatever their role. */
function importerContext(row: TImportRow): TCallerContext {
  return { userId: row.userId, orgId: row.orgId, role: 'analyst', sessionId: null, via: 'session' };
}

/** Follows the list's verification: starts it once analysed, waits while it runs, then prepares and starts the write-back. */
export async function runAdvance(deps: TServiceDeps, rt: TIntegrationRuntime, p: { importId: string }, job: TJobCtx): Promise<void> {
  const row = await selectImport(deps.database.db, p.importId);
  if (!row || row.state !== 'verifying') return;
  const again = () => deps.queue.enqueue(ADVANCE_JOB, p, { orgId: row.orgId, userId: row.userId, delayMs: ADVANCE_DELAY_MS });
  const ctx = importerContext(row);
  let status;
  try {
    status = await getProgressStatus(deps.database.db, ctx, row.verifyListId);
  } catch (err) {
    if (!isAppError(err)) throw err;
    await endImport(deps.database.db, row, { state: 'failed', error: 'The verifier list was removed' });
    return;
  }
  if (status.analysis.state === 'failed') {
    await endImport(deps.database.db, row, { state: 'failed', error: status.analysis.error ?? 'The imported list could not be analysed' });
    return;
  }
  if (status.analysis.state !== 'ready' || status.state === 'in_progress') return void (await again());
  if (status.state === 'cancelled') {
    await endImport(deps.database.db, row, { state: 'cancelled', error: 'The verification was cancelled' });
    return;
  }
  if (status.state === 'non_verified') {
    try {
      await ensureListVerification(deps, ctx, row.verifyListId);
    } catch (err) {
      if (!isAppError(err)) throw err;
      await endImport(deps.database.db, row, { state: 'failed', error: `The verification could not start: ${err.message}` });
      return;
    }
    return void (await again());
  }
  // verified: create the fields / properties write-back needs, then write back chunk by chunk.
  const adapter = await adapterOfImport(deps, rt, row);
  if (!adapter) return;
  await withPlatform(deps, row, job, { name: ADVANCE_JOB, payload: () => p }, async () => {
    if (row.writeBack.append || row.writeBack.unsubscribe) await adapter.prepareWriteBack(row.remoteListId, row.writeBack);
    await deps.database.transaction(async (tx) => {
      const current = await selectImportForUpdate(tx, row.id);
      if (!current || current.state !== 'verifying') return;
      if (!row.writeBack.append && !row.writeBack.unsubscribe) {
        await endImport(tx, row, { state: 'completed' });
        return;
      }
      await updateImport(tx, row.id, { state: 'writing_back' });
      await deps.queue.enqueue(WRITE_BACK_JOB, { importId: row.id, afterSeq: 0 }, { tx, orgId: row.orgId, userId: row.userId });
    });
  });
}

/** The write-back item of a member from its verifier row (null: nothing to write, e.g. never verified). */
function toWriteBackItem(member: { remoteId: string; email: string }, r: Awaited<ReturnType<typeof readListRowsPage>>[number] | undefined): TWriteBackItem | null {
  if (!r) return null;
  if (r.syntax_error) return { member: { id: member.remoteId, email: member.email }, status: 'invalid', safeToSend: false, reason: 'invalid_syntax', undeliverable: true };
  if (!r.status) return null;
  const result = r.result ?? {};
  return {
    member: { id: member.remoteId, email: member.email },
    status: r.status,
    safeToSend: result.safe_to_send === true,
    reason: typeof result.reason === 'string' ? result.reason : '',
    undeliverable: r.status === 'invalid',
  };
}

/**
 * One chunk of the write-back: members after `afterSeq` with their results go to the platform; the cursor moves in the
 * same transaction as the next chunk is queued. A chunk that meets a throttle part-way is queued again with the
 * members already written (`written`), which the retry skips.
 */
export async function runWriteBack(deps: TServiceDeps, rt: TIntegrationRuntime, p: { importId: string; afterSeq: number; written?: string[] }, job: TJobCtx): Promise<void> {
  const row = await selectImport(deps.database.db, p.importId);
  if (!row || row.state !== 'writing_back' || row.writeCursor !== p.afterSeq) return;
  const members = await selectMembersPage(deps.database.db, row.id, p.afterSeq, WRITE_BACK_CHUNK);
  if (members.length === 0) {
    await endImport(deps.database.db, row, { state: 'completed' });
    return;
  }
  const adapter = await adapterOfImport(deps, rt, row);
  if (!adapter) return;
  const lastSeq = members[members.length - 1]!.seq;
  // Row numbers of the verifier list are the members' sequence numbers.
  const rows = new Map((await readListRowsPage(deps.database.db, row.verifyListId, p.afterSeq, lastSeq - p.afterSeq)).map((r) => [r.row_number, r]));
  const items = members.map((m) => toWriteBackItem(m, rows.get(m.seq))).filter((i): i is TWriteBackItem => i !== null);
  const written = new Set(p.written ?? []);
  const todo = items.filter((i) => !written.has(i.member.id));
  const retry = () => ({ importId: p.importId, afterSeq: p.afterSeq, ...(written.size > 0 ? { written: [...written] } : {}) });
  await withPlatform(deps, row, job, { name: WRITE_BACK_JOB, payload: retry }, async () => {
    if (todo.length > 0) {
      await adapter.writeBack(row.remoteListId, todo, row.writeBack, (ids) => {
        for (const id of ids) written.add(id);
      });
    }
    await deps.database.transaction(async (tx) => {
      const current = await selectImportForUpdate(tx, row.id);
      if (!current || current.state !== 'writing_back' || current.writeCursor !== p.afterSeq) return;
      await updateImport(tx, row.id, { writeCursor: lastSeq, writtenBack: current.writtenBack + items.length });
      await deps.queue.enqueue(WRITE_BACK_JOB, { importId: row.id, afterSeq: lastSeq }, { tx, orgId: row.orgId, userId: row.userId });
    });
  });
}
