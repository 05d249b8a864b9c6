import {
  PROSPECT_DEPARTMENTS,
  PROSPECT_REVENUE_RANGES,
  PROSPECT_SENIORITIES,
  PROSPECT_SIZE_RANGES,
  type TProspectFilters,
  type TProspectMetaData,
  type TProspectProfileData,
  type TProspectSearchData,
  type ZProspectSearchRequest,
} from '@verilead/contracts';
import type { z } from 'zod';
import type { TDb } from '../../platform/db/database';
import { throwNotFound } from '../../platform/errors/app-error';
import type { TCallerContext } from '../../platform/tenancy/context';

export { listRunningEnrichments as listRunningJobActivities } from './enrich';
import { selectCompanyPeoplePage, selectCompanyWithPeopleCount, selectListsOfPerson, selectPersonRows, selectProspectActivities } from './profile-queries';
import { createSqlSearchEngine } from './search';
import { toCompanyView, toPersonViews } from './views';

/** For the downloads feature's export job: the rows of a prospect file. */
export { prospectExportRows } from './export';

/** POST /prospect/search: free, contact data masked unless revealed by the organisation. */
export async function searchProspects(exec: TDb, ctx: TCallerContext, input: z.output<typeof ZProspectSearchRequest>): Promise<TProspectSearchData> {
  const engine = createSqlSearchEngine(exec);
  const offset = (input.page - 1) * input.limit;
  if (input.type === 'companies') {
    const { rows, total, capped } = await engine.searchCompanies(input.filters, { sort: input.sort, offset, limit: input.limit });
    return { type: 'companies', people: [], companies: rows.map(toCompanyView), total, total_capped: capped, page: input.page, limit: input.limit };
  }
  const { rows, total, capped } = await engine.searchPeople(input.filters, { sort: input.sort, offset, limit: input.limit });
  return { type: 'people', people: await toPersonViews(exec, ctx.orgId, rows), companies: [], total, total_capped: capped, page: input.page, limit: input.limit };
}

/** GET /prospect/search/meta: facet counts of a search and the fixed filter options. */
export async function searchMeta(exec: TDb, filters: TProspectFilters, type: 'people' | 'companies' = 'people'): Promise<TProspectMetaData> {
  const engine = createSqlSearchEngine(exec);
  const { total, sampled, facets } = await (type === 'companies' ? engine.companyFacets(filters) : engine.facets(filters));
  return {
    total,
    sampled,
    facets,
    options: { seniorities: [...PROSPECT_SENIORITIES], departments: [...PROSPECT_DEPARTMENTS], size_ranges: [...PROSPECT_SIZE_RANGES], revenue_ranges: [...PROSPECT_REVENUE_RANGES] },
  };
}

function companyById(exec: TDb, id: string) {
  return selectCompanyWithPeopleCount(exec, id);
}

/** POST /prospect/view: a person's or a company's profile. */
export async function viewProfile(exec: TDb, ctx: TCallerContext, input: { person_id?: string; company_id?: string }): Promise<TProspectProfileData> {
  if (input.company_id) {
    const c = await companyById(exec, input.company_id);
    if (!c) throwNotFound('Company');
    return { person: null, company: toCompanyView(c), lists: [] };
  }
  const rows = await selectPersonRows(exec, input.person_id!);
  if (!rows[0]) throwNotFound('Person');
  const [person] = await toPersonViews(exec, ctx.orgId, rows);
  const company = rows[0].company_id ? await companyById(exec, rows[0].company_id) : null;
  const lists = await selectListsOfPerson(exec, ctx, rows[0].id);
  return { person: person!, company: company ? toCompanyView(company) : null, lists };
}

/** GET /prospect/search/profiles: the people of a company (its profile page). */
export async function companyPeople(exec: TDb, ctx: TCallerContext, q: { company_id: string; page: number; limit: number }) {
  if (!(await companyById(exec, q.company_id))) throwNotFound('Company');
  const { rows, total } = await selectCompanyPeoplePage(exec, q);
  return { items: await toPersonViews(exec, ctx.orgId, rows), total, page: q.page, limit: q.limit };
}

/** GET /prospect/recent_activities: the organisation's prospect enrichments and exports, newest first. */
export async function recentActivities(exec: TDb, ctx: TCallerContext) {
  const rows = await selectProspectActivities(exec, ctx);
  return { items: rows.map((r) => ({ type: r.type, description: r.description, created_at: new Date(r.created_at).toISOString() })) };
}
