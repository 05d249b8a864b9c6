import {
  INTEGRATION_CATALOG,
  type TConnectAccountRequest,
  type TIntegration,
  type TLinkedAccount,
  type TRemoteList,
  ZConnectAccountRequest,
} from '@verilead/contracts';
import type { TDb } from '../../platform/db/database';
import { AppError, throwFieldError, throwNotFound } from '../../platform/errors/app-error';
import type { TCallerContext } from '../../platform/tenancy/context';
import type { TCredentials } from './adapters/types';
import { getAdapter, openCredentials, platformLabel, sealCredentials, toAppError, type TIntegrationRuntime, type TServiceDeps } from './platform-access';
import { deleteAccount, insertAccount, selectAccount, selectAccounts, type TAccountRow } from './queries';

// The organisation's connected platform accounts: listing them, connecting one (its credentials checked with the
// platform, then stored sealed), disconnecting it, and reading the lists it has on the platform.

export function toAccountView(row: TAccountRow): TLinkedAccount {
  return { id: row.id, integration: row.platform as TIntegration, name: row.name, remote_account: row.remoteAccount, created_at: row.createdAt.toISOString() };
}

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
  if (!info.available) throw new AppError('validation_failed', info.unavailable_reason ?? `${info.label} cannot be connected yet`);
  if (info.oauth && info.fields.length === 0) throw new AppError('validation_failed', `${info.label} connects through its own sign-in page: use "Connect with ${info.label}"`);
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
  if (taken) throwFieldError('name', `You already have a ${platformLabel(platform)} account named "${name}"; please choose another name`);
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
    if (!inserted) throwFieldError('name', `You already have a ${platformLabel(platform)} account named "${name}"; please choose another name`);
    return inserted;
  });
  return toAccountView(row);
}

/** The organisation's account of this platform, or 404. */
export async function requireAccount(exec: TDb, ctx: TCallerContext, platform: TIntegration, accountId: string): Promise<TAccountRow> {
  const row = await selectAccount(exec, ctx.orgId, platform, accountId);
  if (!row) throwNotFound('Account');
  return row;
}

export async function removeAccount(deps: TServiceDeps, ctx: TCallerContext, platform: TIntegration, accountId: string): Promise<{ message: string }> {
  const row = await requireAccount(deps.database.db, ctx, platform, accountId);
  await deleteAccount(deps.database.db, ctx.orgId, row.id);
  return { message: `The ${platformLabel(platform)} account "${row.name}" was disconnected` };
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
