import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { TEnrichState, TProspectListState } from '@verilead/contracts';
import { sourceListColumns } from '../../platform/bulk-lists/list-columns';
import { orgIdColumn, userIdColumn } from '../../platform/tenancy/tables';

/** An enrichment of picked leads or of a whole list. */
export type TEnrichKind = 'lead' | 'list';
/** A reverse lookup by e-mail address or by LinkedIn profile. */
export type TReverseLookupKind = 'email' | 'linkedin';

/** The companies directory (shared by the installation: the operator's licensed data or the demo generator). */
export const directoryCompanies = pgTable(
  'directory_companies',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The operator's key: imports upsert on it. */
    externalId: text('external_id').notNull().unique(),
    name: text('name').notNull(),
    domain: text('domain').notNull(),
    industry: text('industry').notNull(),
    industryCode: text('industry_code').notNull(),
    sizeRange: text('size_range').notNull(),
    employees: integer('employees').notNull(),
    revenueRange: text('revenue_range').notNull(),
    revenueUsd: bigint('revenue_usd', { mode: 'number' }),
    foundedYear: integer('founded_year'),
    technologies: text('technologies').array().notNull().default([]),
    country: text('country').notNull(),
    region: text('region'),
    city: text('city'),
    phone: text('phone'),
    linkedinUrl: text('linkedin_url'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('directory_companies_domain_idx').on(t.domain)],
);

/**
 * The people directory; the company's searchable fields are copied onto each person so a search needs no join (a
 * person without a company, or whose company was deleted, has none: migration 0030).
 */
export const directoryPeople = pgTable(
  'directory_people',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    externalId: text('external_id').notNull().unique(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    fullName: text('full_name').notNull(),
    title: text('title').notNull(),
    seniority: text('seniority').notNull(),
    /** 1 (owner) … 11 (intern), 12 unknown: the relevance order, stored so indexes serve it (migration 0020). */
    seniorityRank: smallint('seniority_rank')
      .notNull()
      .generatedAlwaysAs(
        sql`CASE "seniority" WHEN 'owner' THEN 1 WHEN 'founder' THEN 2 WHEN 'c_suite' THEN 3 WHEN 'partner' THEN 4 WHEN 'vp' THEN 5 WHEN 'head' THEN 6 WHEN 'director' THEN 7 WHEN 'manager' THEN 8 WHEN 'senior' THEN 9 WHEN 'entry' THEN 10 WHEN 'intern' THEN 11 ELSE 12 END`,
      ),
    department: text('department').notNull(),
    country: text('country').notNull(),
    region: text('region'),
    city: text('city'),
    companyId: uuid('company_id').references(() => directoryCompanies.id, { onDelete: 'set null' }),
    companyName: text('company_name'),
    companyDomain: text('company_domain'),
    industry: text('industry'),
    sizeRange: text('size_range'),
    revenueRange: text('revenue_range'),
    foundedYear: integer('founded_year'),
    technologies: text('technologies').array().notNull().default([]),
    email: text('email'),
    /** business | personal */
    emailType: text('email_type'),
    emailRole: boolean('email_role').notNull().default(false),
    phone: text('phone'),
    /** mobile | fixed_line */
    phoneType: text('phone_type'),
    linkedinUrl: text('linkedin_url'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The rank-ordered indexes also INCLUDE the other company and place columns and company_id (migrations 0020 and
    // 0030, hand-written): counts, page ids and facet samples of searches filtered by them come from index-only scans.
    index('directory_people_company_rank_idx').on(t.companyId, t.seniorityRank, t.id),
    // Also hand-written in 0030: directory_people_region_rank_idx and directory_people_city_rank_idx on
    // (lower(region|city), seniority_rank, id) with the same INCLUDE columns.
    index('directory_people_rank_idx').on(t.seniorityRank, t.id),
    index('directory_people_country_rank_idx').on(t.country, t.seniorityRank, t.id),
    index('directory_people_department_rank_idx').on(t.department, t.seniorityRank, t.id),
    index('directory_people_industry_rank_idx').on(t.industry, t.seniorityRank, t.id),
    index('directory_people_title_rank_idx').on(t.title, t.seniorityRank, t.id),
  ],
);

/**
 * Facet counts of the people directory, kept by statement triggers on directory_people (migration 0020): filter
 * ('', '') counts every person per facet value (facet '_total', value '': the people); filter (seniority | department
 * | country, value) counts the same among those people. Search reads them for unfiltered and single-filter searches.
 */
export const directoryFacetRollups = pgTable(
  'directory_facet_rollups',
  {
    filterFacet: text('filter_facet').notNull(),
    filterValue: text('filter_value').notNull(),
    facet: text('facet').notNull(),
    value: text('value').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ name: 'directory_facet_rollups_pk', columns: [t.filterFacet, t.filterValue, t.facet, t.value] })],
);

/**
 * Each company's technologies, one row each, kept by statement triggers on directory_companies (migration 0030):
 * the technology filter finds people through their company, and facet samples count technologies by company.
 */
export const directoryCompanyTechnologies = pgTable(
  'directory_company_technologies',
  {
    companyId: uuid('company_id').notNull(),
    technology: text('technology').notNull(),
  },
  (t) => [
    primaryKey({ name: 'directory_company_technologies_pk', columns: [t.companyId, t.technology] }),
    index('directory_company_technologies_technology_idx').on(t.technology, t.companyId),
  ],
);

/** Every distinct job title of the directory: title filters (and similar titles) are resolved against it, then people are found by exact title. */
export const directoryTitles = pgTable('directory_titles', { title: text('title').primaryKey() });

/** A member's prospect list. */
export const prospectLists = pgTable(
  'prospect_lists',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgIdColumn(),
    userId: userIdColumn(),
    name: text('name').notNull(),
    leadCount: integer('lead_count').notNull().default(0),
    /** not_processed | in_progress | processed | cancelled (spec section 4, enrich list). */
    state: text('state').$type<TProspectListState>().notNull().default('not_processed'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('prospect_lists_org_idx').on(t.orgId, t.createdAt)],
);

export const prospectListLeads = pgTable(
  'prospect_list_leads',
  {
    listId: uuid('list_id')
      .notNull()
      .references(() => prospectLists.id, { onDelete: 'cascade' }),
    personId: uuid('person_id')
      .notNull()
      .references(() => directoryPeople.id, { onDelete: 'cascade' }),
    addedAt: timestamp('added_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'prospect_list_leads_pk', columns: [t.listId, t.personId] })],
);

/** What an organisation has revealed: (org, person, field) is the idempotency key of the charge. */
export const prospectReveals = pgTable(
  'prospect_reveals',
  {
    orgId: orgIdColumn(),
    personId: uuid('person_id')
      .notNull()
      .references(() => directoryPeople.id, { onDelete: 'cascade' }),
    /** email | phone */
    field: text('field').notNull(),
    value: text('value').notNull(),
    /** The verification status of a revealed e-mail, the phone type of a phone. */
    status: text('status'),
    userId: uuid('user_id'),
    credits: integer('credits').notNull().default(0),
    revealedAt: timestamp('revealed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'prospect_reveals_pk', columns: [t.orgId, t.personId, t.field] })],
);

/** An enrichment: one lead (or a few) at once, or a whole list as a chunked job. */
export const prospectEnrichRequests = pgTable(
  'prospect_enrich_requests',
  {
    /** id, org, user, state (queued | in_progress | completed | cancelled | failed), error and times: a source list's row (bulk-list kernel). */
    ...sourceListColumns<TEnrichState>({ initialState: 'queued' }),
    listId: uuid('list_id'),
    /** lead | list */
    kind: text('kind').$type<TEnrichKind>().notNull(),
    options: jsonb('options').$type<{ phones: string; emails: string }>().notNull(),
    personIds: jsonb('person_ids').$type<string[]>(),
    /** The last person id done (list enrichment walks the list by person id). */
    cursor: uuid('cursor'),
    total: integer('total').notNull().default(0),
    processed: integer('processed').notNull().default(0),
    emailsRevealed: integer('emails_revealed').notNull().default(0),
    phonesRevealed: integer('phones_revealed').notNull().default(0),
    creditsCharged: integer('credits_charged').notNull().default(0),
    /** The latest chunk job (cancelled with the request). */
    jobId: uuid('job_id'),
  },
  (t) => [index('prospect_enrich_requests_org_idx').on(t.orgId, t.createdAt)],
);

export const prospectSavedSearches = pgTable(
  'prospect_saved_searches',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgIdColumn(),
    userId: userIdColumn(),
    name: text('name').notNull(),
    filters: jsonb('filters').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('prospect_saved_searches_org_idx').on(t.orgId, t.createdAt)],
);

export const reverseLookups = pgTable(
  'reverse_lookups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgIdColumn(),
    userId: userIdColumn(),
    /** email | linkedin */
    kind: text('kind').$type<TReverseLookupKind>().notNull(),
    query: text('query').notNull(),
    personId: uuid('person_id').references(() => directoryPeople.id, { onDelete: 'set null' }),
    found: boolean('found').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('reverse_lookups_org_idx').on(t.orgId, t.createdAt)],
);
