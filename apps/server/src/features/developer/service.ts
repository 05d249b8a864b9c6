import {
  APP_STATUS_LABELS,
  DEFAULT_APP_RATE_LIMIT,
  type TApp,
  type TAppListData,
  type ZAppCreateRequest,
  type ZAppListQuery,
  type ZAppUpdateRequest,
} from '@verilead/contracts';
import type { z } from 'zod';
import type { TDb } from '../../platform/db/database';
import { AppError, throwNotFound } from '../../platform/errors/app-error';
import { generateToken, hashToken } from '../../platform/auth/tokens';
import { recordAudit } from '../../platform/audit/record';
import { getVisibleScope, type TCallerContext } from '../../platform/tenancy/context';
import { createTtlCache, invalidateCallers, onCallerChange } from '../../platform/cache/ttl-cache';
import { addAppUsage, insertApp, spendAppCredits, selectApp, selectAppByTokenHash, selectAppIds, selectApps, selectDailyUsage, selectDefaultApp, updateApp, type TAppRow } from './queries';

/** Prefix of app tokens (`vla_…`). */
export const APP_TOKEN_PREFIX = 'vla';

export function getUtcDay(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}

function toAppView(row: TAppRow, usedToday: number, token: string | null = null): TApp {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    type: row.type,
    status: row.status,
    status_label: APP_STATUS_LABELS[row.status],
    is_default: row.isDefault === 1,
    token_hint: `${row.tokenHint}…`,
    token,
    credit_limit: row.creditLimit ?? null,
    rate_limit: row.rateLimit,
    allowed_origins: row.allowedOrigins,
    form_guard: row.formGuard ?? null,
    credits_used: { today: usedToday, life_time: row.creditsUsedLifeTime },
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

function newToken() {
  const { token, hash } = generateToken(APP_TOKEN_PREFIX, 30);
  return { token, hash, hint: token.slice(0, 10) };
}

/** POST /apps/create: a new app (status new, "Yet to Activate") and its token, answered once. */
export async function createApp(exec: TDb, ctx: TCallerContext, input: z.output<typeof ZAppCreateRequest>, isDefault = false): Promise<TApp> {
  if (input.type === 'client' && input.allowed_origins.length === 0) {
    throw new AppError('validation_failed', 'A client app needs at least one allowed origin', {
      reasons: [{ field: 'allowed_origins', location: 'body', messages: ['Add the origins (e.g. https://www.example.com) allowed to call the API'] }],
    });
  }
  if (input.form_guard && input.type !== 'client') {
    throw new AppError('validation_failed', 'A form guard is a client app: it runs in the browser on your allowed origins', {
      reasons: [{ field: 'type', location: 'body', messages: ['Choose the client type for a form guard'] }],
    });
  }
  const { token, hash, hint } = newToken();
  const row = await insertApp(exec, {
    orgId: ctx.orgId,
    userId: ctx.userId,
    name: input.name,
    description: input.description ?? '',
    type: input.type,
    status: 'new',
    isDefault: isDefault ? 1 : 0,
    tokenHash: hash,
    tokenHint: hint,
    creditLimit: input.credit_limit ?? null,
    rateLimit: input.rate_limit ?? DEFAULT_APP_RATE_LIMIT,
    allowedOrigins: input.allowed_origins,
    formGuard: input.form_guard ?? null,
  });
  await recordAudit(exec, ctx, { action: 'app.created', targetType: 'app', targetId: row.id, details: { name: row.name, type: row.type } });
  return toAppView(row, 0, token);
}

/** POST /apps/update: name, limits, origins, status (active / inactive / removed) or a rotated token. */
export async function updateAppSettings(exec: TDb, ctx: TCallerContext, input: z.output<typeof ZAppUpdateRequest>): Promise<TApp> {
  // An Executive changes only the apps (and guards) they created; another member's answers 404 like another
  // organisation's (MEMBER_OBJECT_VISIBILITY).
  const current = await selectApp(exec, getVisibleScope(ctx), input.app_id);
  if (!current) throwNotFound('App');
  if (current.status === 'removed') throw new AppError('conflict', 'This app was removed and can no longer be changed');
  if (input.form_guard && current.type !== 'client') throw new AppError('validation_failed', 'Only a client app can be a form guard');
  const rotated = input.rotate_token ? newToken() : null;
  const origins = input.allowed_origins ?? current.allowedOrigins;
  if (current.type === 'client' && origins.length === 0) {
    throw new AppError('validation_failed', 'A client app needs at least one allowed origin', {
      reasons: [{ field: 'allowed_origins', location: 'body', messages: ['Add at least one allowed origin'] }],
    });
  }
  const row = await updateApp(exec, ctx.orgId, current.id, {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(input.status !== undefined ? { status: input.status } : {}),
    ...(input.credit_limit !== undefined ? { creditLimit: input.credit_limit } : {}),
    ...(input.rate_limit !== undefined ? { rateLimit: input.rate_limit } : {}),
    ...(input.allowed_origins !== undefined ? { allowedOrigins: input.allowed_origins } : {}),
    ...(input.form_guard !== undefined ? { formGuard: input.form_guard } : {}),
    ...(rotated ? { tokenHash: rotated.hash, tokenHint: rotated.hint } : {}),
  });
  if (!row) throwNotFound('App');
  if (rotated || input.status === 'removed') await recordAudit(exec, ctx, { action: rotated ? 'app.token_rotated' : 'app.deleted', targetType: 'app', targetId: row.id, details: { name: row.name } });
  // This process answers the new settings (limits, status, token) from the next call on; others within the cache's TTL.
  invalidateCallers({ appId: row.id });
  return toAppView(row, await selectDailyUsage(exec, row.id, getUtcDay()), rotated?.token ?? null);
}

export async function listApps(exec: TDb, ctx: TCallerContext, q: z.output<typeof ZAppListQuery>): Promise<TAppListData> {
  const { rows, total } = await selectApps(exec, getVisibleScope(ctx), q);
  const day = getUtcDay();
  const items = await Promise.all(rows.map(async (r) => toAppView(r, await selectDailyUsage(exec, r.id, day))));
  return { items, total, page: q.page, limit: q.limit };
}

export async function getApp(exec: TDb, ctx: TCallerContext, appId: string): Promise<TApp> {
  const row = await selectApp(exec, getVisibleScope(ctx), appId);
  if (!row) throwNotFound('App');
  return toAppView(row, await selectDailyUsage(exec, row.id, getUtcDay()));
}

/** The apps (and so guards) whose figures the caller sees: undefined for the whole organisation (owners, Managers). */
export async function getVisibleAppIds(exec: TDb, ctx: TCallerContext): Promise<string[] | undefined> {
  const scope = getVisibleScope(ctx);
  return scope.userId ? selectAppIds(exec, scope) : undefined;
}

/** The caller's default app, or null when they have not created one (opening the API page creates nothing). */
export async function getDefaultApp(exec: TDb, ctx: TCallerContext): Promise<TApp | null> {
  const row = await selectDefaultApp(exec, ctx.orgId, ctx.userId);
  return row ? toAppView(row, await selectDailyUsage(exec, row.id, getUtcDay())) : null;
}

/** Creates the caller's default app when they ask for a token on the API page (its token shown once); an existing one is answered as it is. */
export async function createDefaultApp(exec: TDb, ctx: TCallerContext): Promise<TApp> {
  return (
    (await getDefaultApp(exec, ctx)) ??
    createApp(exec, ctx, { name: 'Default app', description: 'Created from the API page', type: 'server', allowed_origins: [], credit_limit: null }, true)
  );
}

// ---------- token authentication (public API) ----------

export type TAppCaller = { app: TAppRow; ctx: TCallerContext };

/**
 * A token's caller for a few seconds (CALLER_CACHE_TTL_MS): every /v2 call reads it, and it changes rarely. Unknown
 * tokens are remembered too (null), so a client retrying a revoked token does not reach the database each time.
 */
const callersByTokenHash = createTtlCache<TAppCaller | null>({ max: 10_000 });
onCallerChange((change) => {
  callersByTokenHash.deleteWhere((c) => {
    // A refused token may be valid after any app or member change (reactivated app, member back to active).
    if (c === null) return true;
    if (change.appId) return c.app.id === change.appId;
    if (change.userId) return c.app.userId === change.userId && (!change.orgId || c.app.orgId === change.orgId);
    return change.orgId !== undefined && c.app.orgId === change.orgId;
  });
});

/**
 * The app and caller behind a token, or null when the token is unknown, the app inactive/removed, its member inactive,
 * or the member or organisation suspended by an operator.
 */
export async function resolveAppToken(exec: TDb, token: string): Promise<TAppCaller | null> {
  if (!token.startsWith(`${APP_TOKEN_PREFIX}_`) || token.length > 200) return null;
  const hash = hashToken(token);
  const cached = callersByTokenHash.get(hash);
  if (cached !== undefined) return cached;
  const found = await selectAppByTokenHash(exec, hash);
  const caller: TAppCaller | null =
    !found || found.memberStatus !== 'active' || found.suspended || (found.app.status !== 'new' && found.app.status !== 'active')
      ? null
      : { app: found.app, ctx: { userId: found.app.userId, orgId: found.app.orgId, role: found.role, sessionId: null, via: 'api_key' } };
  callersByTokenHash.set(hash, caller);
  return caller;
}

/** Whether the app's credit limit leaves room for `credits` more; answers the limit that is reached, if any. */
export async function checkAppCreditLimit(exec: TDb, app: TAppRow, credits = 1): Promise<'daily' | 'life_time' | null> {
  const limit = app.creditLimit;
  if (!limit) return null;
  if (limit.type === 'life_time') return app.creditsUsedLifeTime + credits > limit.value ? 'life_time' : null;
  const used = await selectDailyUsage(exec, app.id, getUtcDay());
  return used + credits > limit.value ? 'daily' : null;
}

/** A charge the app's credit limit does not allow: thrown inside the charging transaction, which it undoes. */
export class AppCreditLimitReached extends Error {
  constructor(readonly limit: 'daily' | 'life_time') {
    super(`The app's ${limit === 'daily' ? 'daily' : 'life-time'} credit limit is reached`);
    this.name = 'AppCreditLimitReached';
  }
}

/**
 * Counts `credits` against the app inside the transaction that charges them, so the organisation's charge, the app's
 * usage and its credit limit move together: a charge the limit does not allow throws AppCreditLimitReached.
 */
export async function chargeAppUsage(tx: TDb, app: TAppRow, credits: number): Promise<void> {
  if (credits === 0) return;
  const reached = await spendAppCredits(tx, app.id, getUtcDay(), credits);
  if (reached) throw new AppCreditLimitReached(reached);
  if (app.status === 'new') await updateApp(tx, app.orgId, app.id, { status: 'active' });
  markUsed(app);
}

/** The cached row follows what this call wrote (status, last use), so the next calls skip those writes. */
function markUsed(app: TAppRow) {
  app.status = app.status === 'new' ? 'active' : app.status;
  app.lastUsedAt = new Date();
}

/** Records credits spent through an app; a new app becomes active on its first call. */
export async function recordAppUsage(exec: TDb, app: TAppRow, credits: number): Promise<void> {
  // Free calls only refresh "last used", at most once a minute (one write less per request).
  const recentlyUsed = app.lastUsedAt !== null && Date.now() - app.lastUsedAt.getTime() < 60_000;
  if (credits === 0 && recentlyUsed && app.status !== 'new') return;
  await addAppUsage(exec, app.id, getUtcDay(), credits);
  if (app.status === 'new') await updateApp(exec, app.orgId, app.id, { status: 'active' });
  markUsed(app);
}
