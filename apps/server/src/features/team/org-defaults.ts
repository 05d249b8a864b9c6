import type { z } from 'zod';
import { DEFAULT_EV_SETTINGS, TEAM_MESSAGES, ZEfSettings, ZEvSettings, ZProspectSettings, type TEfSettings, type TEvSettings, type TOrgDefaultSettings, type TProspectSettings, type ZOrgEfSettingsRequest, type ZOrgEvSettingsRequest, type ZOrgProspectSettingsRequest } from '@verilead/contracts';
import type { TDb } from '../../platform/db/database';
import type { TDeps } from '../../platform/deps';
import type { TCallerContext } from '../../platform/tenancy/context';
import { DEFAULT_EF_SETTINGS, DEFAULT_PROSPECT_SETTINGS, readSection, stripUndefined } from '../../platform/settings/sections';
import { selectOrgDefaults, upsertOrgDefaults } from './queries';

// ---------- organisation default settings ----------


/**
 * The organisation's default settings: the product defaults overlaid with what an owner or Manager
 * set. The settings feature merges a member's own choices over these.
 */
export async function getOrgDefaultSettings(exec: TDb, orgId: string): Promise<TOrgDefaultSettings> {
  const row = await selectOrgDefaults(exec, orgId);
  return {
    ev_settings: readSection<TEvSettings>(ZEvSettings, DEFAULT_EV_SETTINGS, row?.ev),
    ef_settings: readSection<TEfSettings>(ZEfSettings, DEFAULT_EF_SETTINGS, row?.ef),
    prospect_settings: readSection<TProspectSettings>(ZProspectSettings, DEFAULT_PROSPECT_SETTINGS, row?.prospect),
  };
}

async function saveOrgSection(
  deps: TDeps,
  ctx: TCallerContext,
  section: 'ev' | 'ef' | 'prospect',
  pick: (s: TOrgDefaultSettings) => object,
  patch: object,
): Promise<TOrgDefaultSettings & { message: string }> {
  await deps.database.transaction(async (tx) => {
    const current = pick(await getOrgDefaultSettings(tx, ctx.orgId));
    const next = { ...current, ...stripUndefined(patch), setting_last_modified_on: new Date().toISOString() };
    await upsertOrgDefaults(tx, ctx.orgId, section, next, ctx.userId);
  });
  return { message: TEAM_MESSAGES.settingsUpdated, ...(await getOrgDefaultSettings(deps.database.db, ctx.orgId)) };
}

export const updateOrgEvDefaults = (deps: TDeps, ctx: TCallerContext, input: z.output<typeof ZOrgEvSettingsRequest>) =>
  saveOrgSection(deps, ctx, 'ev', (s) => s.ev_settings, input);
export const updateOrgEfDefaults = (deps: TDeps, ctx: TCallerContext, input: z.output<typeof ZOrgEfSettingsRequest>) =>
  saveOrgSection(deps, ctx, 'ef', (s) => s.ef_settings, input);
export const updateOrgProspectDefaults = (deps: TDeps, ctx: TCallerContext, input: z.output<typeof ZOrgProspectSettingsRequest>) =>
  saveOrgSection(deps, ctx, 'prospect', (s) => s.prospect_settings, input);
