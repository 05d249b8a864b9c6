import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZAccuracyRequest,
  ZAutopilotRequest,
  ZEfSettingsRequest,
  ZEfSettingsResponse,
  ZEvSettingsResponse,
  ZGibberishThresholdRequest,
  ZNotificationSettingsRequest,
  ZNotificationSettingsResponse,
  ZProspectEnrichRequest,
  ZProspectSettingsResponse,
  ZSsoSettingsRequest,
  ZSsoSettingsResponse,
  ZUserPreferencesResponse,
  ZWbListQuery,
  ZWbListResponse,
  ZWbListUpdateRequest,
} from '@verilead/contracts';
import { getCaller, type TGuards } from '../../platform/auth/guards';
import type { TDeps } from '../../platform/deps';
import { ok, withErrorResponses } from '../../platform/http/responses';
import { getSsoSettings, saveSsoSettings } from '../sso';
import {
  getUserPreferences,
  listWbEntries,
  updateAccuracy,
  updateAutopilot,
  updateEfSettings,
  updateGibberishThreshold,
  updateNotificationSettings,
  updateProspectEnrichSettings,
  updateWbList,
} from './service';

export function registerSettingsRoutes(app: FastifyInstance, deps: TDeps, guards: TGuards) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database } = deps;
  const base = { tags: ['settings'], security: [{ bearer: [] }] };
  const auth = { onRequest: guards.requireAuth };
  const ev = '/user_preferences/email_verification_settings';

  r.get('/user_preferences', { ...auth, schema: { ...base, summary: "The caller's settings", response: withErrorResponses({ 200: ZUserPreferencesResponse }) } }, async (req) =>
    ok(await getUserPreferences(database.db, getCaller(req))),
  );
  r.put(
    `${ev}/autopilot`,
    { ...auth, schema: { ...base, summary: 'Turn auto-pilot on or off', body: ZAutopilotRequest, response: withErrorResponses({ 200: ZEvSettingsResponse }) } },
    async (req) => ok(await updateAutopilot(database, getCaller(req), req.body)),
  );
  r.put(
    `${ev}/accuracy`,
    { ...auth, schema: { ...base, summary: 'Default verification mode', body: ZAccuracyRequest, response: withErrorResponses({ 200: ZEvSettingsResponse }) } },
    async (req) => ok(await updateAccuracy(database, getCaller(req), req.body)),
  );
  r.put(
    `${ev}/gibberish_threshold`,
    { ...auth, schema: { ...base, summary: 'Gibberish threshold', body: ZGibberishThresholdRequest, response: withErrorResponses({ 200: ZEvSettingsResponse }) } },
    async (req) => ok(await updateGibberishThreshold(database, getCaller(req), req.body)),
  );
  r.put(
    `${ev}/wb_list`,
    { ...auth, schema: { ...base, summary: 'Add to or remove from the allow / block list', body: ZWbListUpdateRequest, response: withErrorResponses({ 200: ZWbListResponse }) } },
    async (req) => ok(await updateWbList(database, getCaller(req), req.body)),
  );
  r.get(
    `${ev}/wb_list`,
    { ...auth, schema: { ...base, summary: 'The allow / block list, paged', querystring: ZWbListQuery, response: withErrorResponses({ 200: ZWbListResponse }) } },
    async (req) => ok(await listWbEntries(database.db, getCaller(req), req.query)),
  );
  r.put(
    '/user_preferences/notification_settings/update',
    { ...auth, schema: { ...base, summary: 'Notification settings', body: ZNotificationSettingsRequest, response: withErrorResponses({ 200: ZNotificationSettingsResponse }) } },
    async (req) => ok(await updateNotificationSettings(database, getCaller(req), req.body)),
  );
  r.put(
    '/user_preferences/email_finder_settings',
    { ...auth, schema: { ...base, summary: 'Email finder settings', body: ZEfSettingsRequest, response: withErrorResponses({ 200: ZEfSettingsResponse }) } },
    async (req) => ok(await updateEfSettings(database, getCaller(req), req.body)),
  );
  r.put(
    '/user_preferences/prospect_settings/enrich',
    { ...auth, schema: { ...base, summary: 'Prospect enrich settings', body: ZProspectEnrichRequest, response: withErrorResponses({ 200: ZProspectSettingsResponse }) } },
    async (req) => ok(await updateProspectEnrichSettings(database, getCaller(req), req.body)),
  );
  r.get('/user_preferences/sso', { ...auth, schema: { ...base, summary: 'Single sign-on configuration', response: withErrorResponses({ 200: ZSsoSettingsResponse }) } }, async (req) =>
    ok(await getSsoSettings(database.db, getCaller(req))),
  );
  r.post(
    '/user_preferences/sso',
    { ...auth, schema: { ...base, summary: 'Configure single sign-on (owner, manager)', body: ZSsoSettingsRequest, response: withErrorResponses({ 200: ZSsoSettingsResponse }) } },
    async (req) => ok(await saveSsoSettings(database, deps.config.appSecret, getCaller(req), req.body)),
  );
}
