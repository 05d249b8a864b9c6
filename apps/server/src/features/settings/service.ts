import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { recordAudit } from '../../platform/audit/record';
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
  type TSsoSettings,
  type TUserPreferences,
  type TVerificationMode,
  type TWbListData,
  type ZSsoSettingsRequest,
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
  selectSso,
  selectUserSettings,
  selectWbEntries,
  touchWbList,
  upsertSettingsSection,
  upsertSso,
  type TSettingsSection,
} from './queries';
import { readSection, stripUndefined } from '../../platform/settings/sections';
import { createTtlCache, invalidateCallers, onCallerChange } from '../../platform/cache/ttl-cache';
import { getOrgDefaultSettings } from '../team/service';
import { claimSsoDomains, listSsoDomainClaims } from '../sso/domain-claims';

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
      list_type: r.listType as 'allow' | 'block',
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
        throw new AppError(400, 'validation_failed', `The allow and block lists hold at most ${WB_LIST_MAX_ENTRIES} entries together`, {
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

// ---------- single sign-on ----------

/** AES-256-GCM with a key derived from APP_SECRET: `v1.<iv>.<tag>.<ciphertext>` (base64url). */
function encryptSecret(appSecret: string, plain: string): string {
  const key = createHash('sha256').update(`sso-secret:${appSecret}`).digest();
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const enc = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), enc.toString('base64url')].join('.');
}

/** Reads a secret written by encryptSecret (the SSO client secret); null when it cannot be read. */
export function decryptSsoSecret(appSecret: string, stored: string): string | null {
  const [v, iv, tag, enc] = stored.split('.');
  if (v !== 'v1' || !iv || !tag || !enc) return null;
  try {
    const key = createHash('sha256').update(`sso-secret:${appSecret}`).digest();
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(enc, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

/** The stored SSO row as the API shows it (the sso feature reads it through this too). */
export function toSsoSettings(row: Awaited<ReturnType<typeof selectSso>>): Omit<TSsoSettings, 'domain_claims'> {
  const c = (row?.config ?? {}) as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
  return {
    setting_last_modified_on: row?.updatedAt.toISOString() ?? null,
    enabled: c.enabled === true,
    enforce: c.enforce === true,
    provider: (str(c.provider) as TSsoSettings['provider']) ?? null,
    domains: Array.isArray(c.domains) ? c.domains.filter((d): d is string => typeof d === 'string') : [],
    issuer_url: str(c.issuer_url),
    sso_url: str(c.sso_url),
    client_id: str(c.client_id),
    has_client_secret: !!row?.clientSecretEnc,
    has_certificate: !!row?.certificate,
    default_role: c.default_role === 'admin' ? 'admin' : 'analyst',
  };
}

export async function getSsoSettings(exec: TDb, ctx: TCallerContext): Promise<TSsoSettings> {
  return { ...toSsoSettings(await selectSso(exec, ctx.orgId)), domain_claims: await listSsoDomainClaims(exec, ctx.orgId) };
}

/** Owners and managers configure SSO for the organisation. */
export async function saveSsoSettings(
  database: TDatabase,
  appSecret: string,
  ctx: TCallerContext,
  input: z.output<typeof ZSsoSettingsRequest>,
): Promise<TSsoSettings> {
  if (ctx.role === 'analyst') throw new AppError(403, 'forbidden', 'Only the owner or a manager can configure single sign-on');
  await database.transaction(async (tx) => {
    const existing = await selectSso(tx, ctx.orgId);
    // Pending until proved by a DNS TXT record (sso/domain-claims.ts); free-mail and public suffixes refused.
    const domains = [...new Set(input.domains)];
    await claimSsoDomains(tx, ctx.orgId, domains);
    if (input.enabled && input.provider !== 'saml' && !input.client_secret && !existing?.clientSecretEnc) {
      throw new AppError(400, 'validation_failed', 'Please enter the client secret', {
        reasons: [{ field: 'client_secret', location: 'body', messages: ['Please enter the client secret'] }],
      });
    }
    if (input.enabled && input.provider === 'saml' && !input.certificate && !existing?.certificate) {
      throw new AppError(400, 'validation_failed', 'Please paste the identity provider certificate', {
        reasons: [{ field: 'certificate', location: 'body', messages: ['Please paste the identity provider certificate'] }],
      });
    }
    await upsertSso(tx, {
      orgId: ctx.orgId,
      userId: ctx.userId,
      config: {
        enabled: input.enabled,
        enforce: input.enforce,
        provider: input.provider,
        domains,
        issuer_url: input.issuer_url ?? null,
        sso_url: input.sso_url ?? null,
        client_id: input.client_id ?? null,
        default_role: input.default_role,
      },
      clientSecretEnc: input.client_secret ? encryptSecret(appSecret, input.client_secret) : undefined,
      certificate: input.certificate,
    });
    await recordAudit(tx, ctx, { action: 'sso.settings_changed', targetType: 'sso', details: { enabled: input.enabled, enforce: input.enforce, provider: input.provider, domains, client_secret_changed: Boolean(input.client_secret), certificate_changed: Boolean(input.certificate) } });
  });
  return getSsoSettings(database.db, ctx);
}
