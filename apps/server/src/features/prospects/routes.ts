import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  PUBLIC_REVERSE_LOOKUP_DAILY_LIMIT,
  ZAddProfilesData,
  ZAddProfilesRequest,
  ZCompanyAutocompleteData,
  ZCompanyAutocompleteQuery,
  ZDownload,
  ZEnrichLeadsData,
  ZEnrichLeadsRequest,
  ZEnrichRequest,
  ZEnrichStatusQuery,
  ZFailure,
  ZLeadInListData,
  ZLeadInListQuery,
  ZListDetailsData,
  ZListDetailsQuery,
  ZListEnrichRequest,
  ZListExportRequest,
  ZListLeadsData,
  ZListLeadsQuery,
  ZListRemoveLeadRequest,
  ZListRemoveRequest,
  ZListUpdateRequest,
  ZMessageData,
  ZProspectDownloadRequest,
  ZProspectList,
  ZProspectListsData,
  ZProspectListsQuery,
  ZProspectMetaData,
  ZProspectMetaQuery,
  ZProspectPeoplePage,
  ZProspectProfileData,
  ZProspectProfilesQuery,
  ZProspectSearchData,
  ZProspectSearchRequest,
  ZProspectViewRequest,
  ZPublicPersonData,
  ZPublicPersonEmailRequest,
  ZPublicPersonLinkedinRequest,
  ZRecentActivitiesData,
  ZRecentAddedData,
  ZRemoveFilterRequest,
  ZRemoveRequestRequest,
  ZRequestsData,
  ZRequestsQuery,
  ZReverseHistoryData,
  ZReverseHistoryQuery,
  ZReverseLookupData,
  ZReverseLookupRequest,
  ZSavedSearch,
  ZSavedSearchesData,
  ZSaveFilterRequest,
  ZSuccess,
} from '@verilead/contracts';
import { z } from 'zod';
import { getCaller, type TGuards } from '../../platform/auth/guards';
import type { TDeps } from '../../platform/deps';
import { requestClosedSignal } from '../../platform/http/request-closed';
import { ok, withErrorResponses } from '../../platform/http/responses';
import { cancelListEnrich, enrichLeads, getRequest, latestListRequest, listRequests, removeRequest, startListEnrich } from './enrich';
import { requestProspectExport } from './export';
import { addProfiles, getList, leadsInLists, listFilters, listLeads, listLists, recentAdded, removeFilter, removeLeads, removeList, saveFilter, toListView, updateList } from './lists';
import { lookupHistory, publicLookup, reverseLookup } from './lookup';
import { selectCompanyAutocomplete, selectListRevealCounts } from './queries';
import { companyPeople, recentActivities, searchMeta, searchProspects, viewProfile } from './service';

const DAY_MS = 86_400_000;

export function registerProspectRoutes(app: FastifyInstance, deps: TDeps, guards: TGuards) {
  const { database, config } = deps;
  const db = database.db;
  const { verifier } = deps;
  const base = { tags: ['prospect'], security: [{ bearer: [] }] };
  const rl = { tags: ['reverse_lookup'], security: [{ bearer: [] }] };
  const auth = { onRequest: guards.requireAuth };
  const res = <T extends z.ZodType>(data: T, extra: Record<number, z.ZodType> = {}) => ({ ...withErrorResponses({ 200: ZSuccess(data) }), ...extra });
  const r = app.withTypeProvider<ZodTypeProvider>();

  // ----- search and profiles -----
  r.post(
    '/prospect/search',
    { ...auth, schema: { ...base, summary: 'Search people or companies (free; contact data masked until revealed)', body: ZProspectSearchRequest, response: res(ZProspectSearchData) } },
    async (req) => ok(await searchProspects(db, getCaller(req), req.body)),
  );
  r.get(
    '/prospect/search/meta',
    { ...auth, schema: { ...base, summary: 'Facet counts of a search (filters as JSON in `filters`) and the filter options', querystring: ZProspectMetaQuery, response: res(ZProspectMetaData) } },
    async (req) => ok(await searchMeta(db, req.query.filters, req.query.type)),
  );
  r.post(
    '/prospect/view',
    { ...auth, schema: { ...base, summary: 'A person’s or a company’s profile', body: ZProspectViewRequest, response: res(ZProspectProfileData) } },
    async (req) => ok(await viewProfile(db, getCaller(req), req.body)),
  );
  r.get(
    '/prospect/search/profiles',
    { ...auth, schema: { ...base, summary: 'The people of a company, paged', querystring: ZProspectProfilesQuery, response: res(ZProspectPeoplePage) } },
    async (req) => ok(await companyPeople(db, getCaller(req), req.query)),
  );

  // ----- saved searches -----
  r.post(
    '/prospect/search/save_filter',
    { ...auth, schema: { ...base, summary: 'Save a search', body: ZSaveFilterRequest, response: res(ZSavedSearch) } },
    async (req) => ok(await saveFilter(db, getCaller(req), req.body.name, req.body.filters)),
  );
  r.get('/prospect/search/filters', { ...auth, schema: { ...base, summary: 'Saved searches', response: res(ZSavedSearchesData) } }, async (req) => ok(await listFilters(db, getCaller(req))));
  r.post(
    '/prospect/search/remove_filter',
    { ...auth, schema: { ...base, summary: 'Remove a saved search', body: ZRemoveFilterRequest, response: res(ZMessageData) } },
    async (req) => ok(await removeFilter(db, getCaller(req), req.body.filter_id)),
  );

  // ----- lists -----
  r.get('/prospect/list', { ...auth, schema: { ...base, summary: 'Prospect lists, paged', querystring: ZProspectListsQuery, response: res(ZProspectListsData) } }, async (req) =>
    ok(await listLists(db, getCaller(req), req.query)),
  );
  r.post(
    '/prospect/search/add_profiles',
    { ...auth, schema: { ...base, summary: 'Add chosen people, or the first results of a search, to a list (a new one when named)', body: ZAddProfilesRequest, response: res(ZAddProfilesData) } },
    async (req) => ok(await addProfiles(database, getCaller(req), req.body)),
  );
  r.post('/prospect/list/update', { ...auth, schema: { ...base, summary: 'Rename a list', body: ZListUpdateRequest, response: res(ZProspectList) } }, async (req) =>
    ok(await updateList(database, getCaller(req), req.body.list_id, req.body.name)),
  );
  r.post('/prospect/list/remove', { ...auth, schema: { ...base, summary: 'Remove a list', body: ZListRemoveRequest, response: res(ZMessageData) } }, async (req) =>
    ok(await removeList(database, getCaller(req), req.body.list_id)),
  );
  r.post(
    '/prospect/list/remove_lead',
    { ...auth, schema: { ...base, summary: 'Remove people from a list', body: ZListRemoveLeadRequest, response: res(z.object({ list: ZProspectList, removed: z.number().int() })) } },
    async (req) => ok(await removeLeads(database, getCaller(req), req.body.list_id, req.body.person_ids)),
  );
  r.get('/prospect/list/details', { ...auth, schema: { ...base, summary: 'A list with its enrichment', querystring: ZListDetailsQuery, response: res(ZListDetailsData) } }, async (req) => {
    const ctx = getCaller(req);
    const list = await getList(db, ctx, req.query.list_id);
    const counts = await selectListRevealCounts(db, ctx.orgId, list.id);
    return ok({ list: toListView(list), revealed_emails: counts.emails, revealed_phones: counts.phones, enrichment: await latestListRequest(db, list.id) });
  });
  r.get(
    '/prospect/list/lead_in_list',
    { ...auth, schema: { ...base, summary: 'Which lists hold each person (person_ids comma separated)', querystring: ZLeadInListQuery, response: res(ZLeadInListData) } },
    async (req) => ok(await leadsInLists(db, getCaller(req), req.query.person_ids)),
  );
  r.get(
    '/prospect/list/search/leads',
    { ...auth, schema: { ...base, summary: 'The leads of a list, searchable and paged', querystring: ZListLeadsQuery, response: res(ZListLeadsData) } },
    async (req) => ok(await listLeads(db, getCaller(req), req.query)),
  );

  // ----- enrichment -----
  r.post(
    '/prospect/enrich',
    { ...auth, schema: { ...base, summary: 'Reveal the contact data of up to 25 people now (charged only for what is revealed; each field says why it was not)', body: ZEnrichLeadsRequest, response: res(ZEnrichLeadsData, { 402: ZFailure }) } },
    async (req, reply) => ok(await enrichLeads(deps, verifier, getCaller(req), req.body.person_ids, req.body.options, { closed: requestClosedSignal(reply) })),
  );
  r.post(
    '/prospect/list/enrich',
    { ...auth, schema: { ...base, summary: 'Start enriching a whole list (a chunked job), or stop it with cancel: true', body: ZListEnrichRequest, response: res(ZEnrichRequest) } },
    async (req) => {
      const ctx = getCaller(req);
      return ok(req.body.cancel ? await cancelListEnrich(deps, ctx, req.body.list_id) : await startListEnrich(deps, ctx, req.body.list_id, req.body.options));
    },
  );
  r.get('/prospect/lead/enrich/status', { ...auth, schema: { ...base, summary: 'Progress of an enrichment', querystring: ZEnrichStatusQuery, response: res(ZEnrichRequest) } }, async (req) =>
    ok(await getRequest(db, getCaller(req), req.query.request_id)),
  );
  r.get('/prospect/requests', { ...auth, schema: { ...base, summary: 'Enrichment requests, newest first', querystring: ZRequestsQuery, response: res(ZRequestsData) } }, async (req) =>
    ok(await listRequests(db, getCaller(req), req.query)),
  );
  r.get('/prospect/inprogress_requests', { ...auth, schema: { ...base, summary: 'Enrichments still running', querystring: ZRequestsQuery, response: res(ZRequestsData) } }, async (req) =>
    ok(await listRequests(db, getCaller(req), req.query, true)),
  );
  r.post(
    '/prospect/remove',
    { ...auth, schema: { ...base, summary: 'Stop a running enrichment, or remove a finished one from the requests', body: ZRemoveRequestRequest, response: res(ZMessageData) } },
    async (req) => ok(await removeRequest(deps, getCaller(req), req.body.request_id)),
  );

  // ----- home -----
  r.get('/prospect/recent_added', { ...auth, schema: { ...base, summary: 'People recently added to lists', response: res(ZRecentAddedData) } }, async (req) => ok(await recentAdded(db, getCaller(req))));
  r.get('/prospect/recent_activities', { ...auth, schema: { ...base, summary: 'Recent prospect enrichments and exports', response: res(ZRecentActivitiesData) } }, async (req) =>
    ok(await recentActivities(db, getCaller(req))),
  );

  // ----- files -----
  r.post(
    '/prospect/list/export',
    { ...auth, schema: { ...base, summary: 'Prepare a list’s leads as CSV or XLSX (revealed contact data only); poll /download/result/status', body: ZListExportRequest, response: res(ZDownload) } },
    async (req) => ok(await requestProspectExport(deps, getCaller(req), req.body)),
  );
  r.post(
    '/prospect/download',
    { ...auth, schema: { ...base, summary: 'Prepare chosen people as CSV or XLSX (revealed contact data only)', body: ZProspectDownloadRequest, response: res(ZDownload) } },
    async (req) => ok(await requestProspectExport(deps, getCaller(req), req.body)),
  );
  // ----- reverse lookup -----
  r.post(
    '/reverse_lookup/person',
    { ...auth, schema: { ...rl, summary: 'Who is behind an e-mail address or a LinkedIn URL (1 credit when found, once per person)', body: ZReverseLookupRequest, response: res(ZReverseLookupData, { 402: ZFailure }) } },
    async (req) => ok(await reverseLookup(database, getCaller(req), req.body)),
  );
  r.get('/reverse_lookup/history', { ...auth, schema: { ...rl, summary: 'Reverse lookups, newest first', querystring: ZReverseHistoryQuery, response: res(ZReverseHistoryData) } }, async (req) =>
    ok(await lookupHistory(db, getCaller(req), req.query)),
  );

  // ----- public -----
  // Counted before the handler, after validation: an input the page refuses (400) is not one of the day's lookups.
  const publicLimit = { rateLimit: { max: PUBLIC_REVERSE_LOOKUP_DAILY_LIMIT, timeWindow: DAY_MS, hook: 'preHandler' as const, keyGenerator: (req: { ip: string }) => `public-rl:${req.ip}` } };
  r.post(
    '/public/person/search_by_email',
    { config: publicLimit, schema: { tags: ['public'], summary: `Who is behind an e-mail address (no login; ${PUBLIC_REVERSE_LOOKUP_DAILY_LIMIT} a day per IP address)`, body: ZPublicPersonEmailRequest, response: { 200: ZSuccess(ZPublicPersonData), 400: ZFailure, 429: ZFailure } } },
    async (req) => ok(await publicLookup(db, req.body)),
  );
  r.post(
    '/public/person/search_by_linkedin',
    { config: publicLimit, schema: { tags: ['public'], summary: `Who is behind a LinkedIn URL (no login; ${PUBLIC_REVERSE_LOOKUP_DAILY_LIMIT} a day per IP address)`, body: ZPublicPersonLinkedinRequest, response: { 200: ZSuccess(ZPublicPersonData), 400: ZFailure, 429: ZFailure } } },
    async (req) => ok(await publicLookup(db, req.body)),
  );
  r.get(
    '/public/companies/autocomplete',
    {
      config: { rateLimit: { max: config.rateLimit.publicMax, timeWindow: config.rateLimit.windowMs } },
      schema: { tags: ['public'], summary: 'Company names that start with or resemble the text (no login)', querystring: ZCompanyAutocompleteQuery, response: { 200: ZSuccess(ZCompanyAutocompleteData), 400: ZFailure, 429: ZFailure } },
    },
    async (req) => {
      const q = req.query.query;
      const items = await selectCompanyAutocomplete(db, q);
      return ok({ items });
    },
  );
}
