import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZDataRetentionResponse, ZDataRetentionUpdateRequest, ZDownloadResponse, ZMessageResponse, ZOrganisationDeleteRequest } from '@verilead/contracts';
import { getCaller, type TGuards } from '../../platform/auth/guards';
import type { TDeps } from '../../platform/deps';
import { ok, withErrorResponses } from '../../platform/http/responses';
import { deleteOrganisation, getDataRetention, requestOrganisationExport, updateDataRetention } from './service';

/** Data retention and privacy: the owner's retention setting, the organisation's data export and its deletion. */
export function registerPrivacyRoutes(app: FastifyInstance, deps: TDeps, guards: TGuards) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = { tags: ['settings'], security: [{ bearer: [] }] };
  const auth = { onRequest: guards.requireAuth };
  const { storage } = deps;

  r.get(
    '/user_preferences/data_retention',
    { ...auth, schema: { ...base, summary: 'How long files and verification results are kept', response: withErrorResponses({ 200: ZDataRetentionResponse }) } },
    async (req) => ok(await getDataRetention(deps, getCaller(req))),
  );
  r.put(
    '/user_preferences/data_retention',
    {
      ...auth,
      schema: { ...base, summary: 'Choose how long files and verification results are kept', body: ZDataRetentionUpdateRequest, response: withErrorResponses({ 200: ZDataRetentionResponse }) },
    },
    async (req) => ok(await updateDataRetention(deps, getCaller(req), req.body)),
  );
  r.post(
    '/user_preferences/data_export',
    { ...auth, schema: { ...base, summary: "Export all of the organisation's data (JSON lines, prepared by a job)", response: withErrorResponses({ 200: ZDownloadResponse }) } },
    async (req) => ok(await requestOrganisationExport(deps, getCaller(req))),
  );
  r.post(
    '/user_preferences/organisation/delete',
    {
      ...auth,
      schema: { ...base, summary: 'Delete the organisation and all its data', body: ZOrganisationDeleteRequest, response: withErrorResponses({ 200: ZMessageResponse }) },
    },
    async (req) => ok(await deleteOrganisation(deps, storage, getCaller(req), req.body)),
  );
}
