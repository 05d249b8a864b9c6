import {
  ZEfSettings,
  ZEvSettings,
  ZNotificationSettings,
  ZProspectSettings,
  type TAccuracyRequest,
  type TAutopilotRequest,
  type TEfSettings,
  type TEfSettingsRequest,
  type TEvSettings,
  type TGibberishThreshold,
  type TGibberishThresholdRequest,
  type TNotificationSettings,
  type TNotificationSettingsRequest,
  type TProspectEnrichRequest,
  type TProspectSettings,
  type TUserPreferences,
  type TVerificationMode,
  type TWbListData,
  type ZWbListQuery,
  type ZWbListUpdateRequest,
  WB_LIST_MAX_ENTRIES,
} from '@verilead/contracts';
import type { z } from 'zod';
import type { TDatabase, TDb } from '../../platform/db/database';
import { AppError } from '../../platform/errors/app-error';
import type { TCallerContext } from '../../platform/tenancy/context';
import {
  countWbEntries,
  deleteWbEntries,
  insertWbEntries,
  selectAllWbEntries,
  selectUserSettings,
  selectWbEntries,
  touchWbList,
  upsertSettingsSection,
  type TSettingsSection,
} from './queries';
import { readSection, stripUndefined } from '../../platform/settings/sections';
import { createTtlCache, invalidateCallers, onCallerChange } from '../../platform/cache/ttl-cache';
import { getOrgDefaultSettings } from '../team';

const DEFAULT_NOTIFICATIONS: TNotificationSettings = { setting_last_modified_on: null, notifications: true, low_credit_notification: true };

/** A member's settings: their own choices over the organisation's defaults over the product defaults. */
export async function getUserPreferences(exec: TDb, ctx: Pick<TCallerContext, 'userId' | 'orgId'>): Promise<TUserPreferences> {
  const row = await selectUserSettings(exec, ctx.userId);
  const org = await getOrgDefaultSettings(exec, ctx.orgId);
  return {
    ev_settings: readSection(ZEvSettings, org.ev_settings, row?.ev),
    ef_settings: readSection(ZEfSettings, org.ef_settings, row?.ef),
    prospect_settings: readSection(ZProspectSettings, org.prospect_settings, row?.prospect),
    notification_settings: readSection(ZNotificationSettings, DEFAULT_NOTIFICATIONS, row?.notifications),
  };
}

export async function getEvSettings(exec: TDb, ctx: TCallerContext): Promise<TEvSettings> {
  return (await getUserPreferences(exec, ctx)).ev_settings;
}

async function saveSection<T extends { setting_last_modified_on: string | null }>(
  database: TDatabase,
  ctx: TCallerContext,
  section: TSettingsSection,
  read: (p: TUserPreferences) => T,
  patch: Partial<T>,
): Promise<T> {
  return database.transaction(async (tx) => {
    // Only the member's own choices are stored, so later changes to the organisation's defaults still reach the rest.
    const own = (await selectUserSettings(tx, ctx.userId))?.[section] ?? {};
    const next = { ...own, ...stripUndefined(patch), setting_last_modified_on: new Date().toISOString() };
    await upsertSettingsSection(tx, { userId: ctx.userId, orgId: ctx.orgId, section, value: next });
    invalidateCallers({ orgId: ctx.orgId, userId: ctx.userId });
    return read(await getUserPreferences(tx, ctx));
  });
}

export const updateAutopilot = (database: TDatabase, ctx: TCallerContext, input: TAutopilotRequest) =>
  saveSection<TEvSettings>(database, ctx, 'ev', (p) => p.ev_settings, { auto_pilot_status: input.auto_pilot_status });
export const updateAccuracy = (database: TDatabase, ctx: TCallerContext, input: TAccuracyRequest) =>
  saveSection<TEvSettings>(database, ctx, 'ev', (p) => p.ev_settings, {
    default_email_verify_mode: input.default_email_verify_mode,
    can_show_email_verify_mode: input.can_show_email_verify_mode,
  });
export const updateGibberishThreshold = (database: TDatabase, ctx: TCallerContext, input: TGibberishThresholdRequest) =>
  saveSection<TEvSettings>(database, ctx, 'ev', (p) => p.ev_settings, { gibberish_threshold_value: input.gibberish_threshold_value });
export const updateNotificationSettings = (database: TDatabase, ctx: TCallerContext, input: TNotificationSettingsRequest) =>
  saveSection<TNotificationSettings>(database, ctx, 'notifications', (p) => p.notification_settings, input);
export const updateEfSettings = (database: TDatabase, ctx: TCallerContext, input: TEfSettingsRequest) =>
  saveSection<TEfSettings>(database, ctx, 'ef', (p) => p.ef_settings, input);
export const updateProspectEnrichSettings = (database: TDatabase, ctx: TCallerContext, input: TProspectEnrichRequest) =>
  saveSection<TProspectSettings>(database, ctx, 'prospect', (p) => p.prospect_settings, input);

// ---------- allow / block list ----------

export async function listWbEntries(exec: TDb, ctx: TCallerContext, q: z.output<typeof ZWbListQuery>): Promise<TWbListData> {
  const [{ rows, total }, counts, settings] = await Promise.all([
    selectWbEntries(exec, { userId: ctx.userId, orgId: ctx.orgId, listType: q.list_type, search: q.search, offset: (q.page - 1) * q.limit, limit: q.limit }),
    countWbEntries(exec, { userId: ctx.userId, orgId: ctx.orgId }),
    selectUserSettings(exec, ctx.userId),
  ]);
  return {
    items: rows.map((r) => ({
      value: r.value,
      list_type: r.listType,
      kind: r.value.includes('@') ? 'email' : 'domain',
      created_at: r.createdAt.toISOString(),
    })),
    total,
    page: q.page,
    limit: q.limit,
    allow_count: counts.allow,
    block_count: counts.block,
    setting_last_modified_on: settings?.wbListModifiedAt?.toISOString() ?? null,
  };
}

export async function updateWbList(database: TDatabase, ctx: TCallerContext, input: z.output<typeof ZWbListUpdateRequest>): Promise<TWbListData> {
  const values = [...new Set(input.entries)];
  await database.transaction(async (tx) => {
    const scope = { userId: ctx.userId, orgId: ctx.orgId, listType: input.list_type, values };
    if (input.action === 'add') {
      const counts = await countWbEntries(tx, ctx);
      if (counts.allow + counts.block + values.length > WB_LIST_MAX_ENTRIES) {
        throw new AppError('validation_failed', `The allow and block lists hold at most ${WB_LIST_MAX_ENTRIES} entries together`, {
          reasons: [{ field: 'entries', location: 'body', messages: [`At most ${WB_LIST_MAX_ENTRIES} entries in total`] }],
        });
      }
      // An entry lives in one list only: adding it to one removes it from the other.
      await deleteWbEntries(tx, { ...scope, listType: input.list_type === 'allow' ? 'block' : 'allow' });
      await insertWbEntries(tx, scope);
    } else {
      await deleteWbEntries(tx, scope);
    }
    await touchWbList(tx, ctx);
  });
  invalidateCallers({ orgId: ctx.orgId, userId: ctx.userId });
  return listWbEntries(database.db, ctx, { page: 1, limit: 25, list_type: input.list_type });
}

export type TVerifierPreferences = { mode: TVerificationMode; gibberishThreshold: TGibberishThreshold; wbList: { allow: string[]; block: string[] }; autoPilot: boolean };

/** A member's verifier preferences for a few seconds (CALLER_CACHE_TTL_MS): every instant call reads them. */
const verifierPrefs = createTtlCache<TVerifierPreferences>({ max: 10_000 });
onCallerChange((change) => {
  if (change.appId && !change.orgId && !change.userId) return;
  verifierPrefs.deleteWhere((_v, key) => {
    const [orgId, userId] = key.split('|');
    return (!change.orgId || orgId === change.orgId) && (!change.userId || userId === change.userId);
  });
});

/** What verification takes from the user's settings: mode, gibberish threshold and the allow/block lists. */
export async function getVerifierPreferences(exec: TDb, ctx: Pick<TCallerContext, 'userId' | 'orgId'>): Promise<TVerifierPreferences> {
  const key = `${ctx.orgId}|${ctx.userId}`;
  const cached = verifierPrefs.get(key);
  if (cached) return cached;
  const [{ ev_settings: ev }, entries] = await Promise.all([getUserPreferences(exec, ctx), selectAllWbEntries(exec, ctx)]);
  const prefs: TVerifierPreferences = {
    mode: ev.default_email_verify_mode,
    gibberishThreshold: ev.gibberish_threshold_value,
    autoPilot: ev.auto_pilot_status,
    wbList: { allow: entries.filter((e) => e.listType === 'allow').map((e) => e.value), block: entries.filter((e) => e.listType === 'block').map((e) => e.value) },
  };
  verifierPrefs.set(key, prefs);
  return prefs;
}
