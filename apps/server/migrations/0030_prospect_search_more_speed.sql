-- Prospect search without table reads for company and place filters and facets: people are matched on their
-- company's technologies, name and domain through their company_id (carried by every covering index) and small
-- company-side lookups, region and city get rank-ordered covering indexes, and facet samples come from index-only
-- scans (technologies through the company).
--
-- A person's company fields are copies of their company's (directory-store.ts keeps them); a person whose company
-- is deleted keeps none of them, so "matches the company" and "matches the copies" stay the same thing.
UPDATE "directory_people" SET "company_id" = NULL, "company_name" = NULL, "company_domain" = NULL, "industry" = NULL, "size_range" = NULL,
  "revenue_range" = NULL, "founded_year" = NULL, "technologies" = '{}'
WHERE "company_id" IS NULL AND ("company_name" IS NOT NULL OR "company_domain" IS NOT NULL OR "industry" IS NOT NULL OR "size_range" IS NOT NULL
  OR "revenue_range" IS NOT NULL OR "founded_year" IS NOT NULL OR "technologies" <> '{}');
--> statement-breakpoint
CREATE OR REPLACE FUNCTION directory_company_forget() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE directory_people SET company_id = NULL, company_name = NULL, company_domain = NULL, industry = NULL, size_range = NULL,
    revenue_range = NULL, founded_year = NULL, technologies = '{}'
  WHERE company_id = OLD.id;
  RETURN OLD;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "directory_companies_forget" BEFORE DELETE ON "directory_companies" FOR EACH ROW EXECUTE FUNCTION directory_company_forget();
--> statement-breakpoint
-- A company's technologies are a set (the import now drops repeats; earlier repeats are dropped here, keeping the
-- first of each, and the people's copies follow).
WITH "deduplicated" AS (
  UPDATE "directory_companies" c SET "technologies" = ARRAY(SELECT x FROM unnest(c."technologies") WITH ORDINALITY u(x, i) GROUP BY x ORDER BY min(i))
  WHERE cardinality(c."technologies") <> (SELECT count(DISTINCT x) FROM unnest(c."technologies") x)
  RETURNING c."id", c."technologies"
)
UPDATE "directory_people" p SET "technologies" = d."technologies" FROM "deduplicated" d WHERE p."company_id" = d."id";
--> statement-breakpoint
-- Each company's technologies, one row each: "people using Salesforce" is "people whose company is in the
-- Salesforce rows" (an index-only read of ~1 page per 200 companies), and a facet sample's technologies are read by company.
CREATE TABLE "directory_company_technologies" (
	"company_id" uuid NOT NULL,
	"technology" text NOT NULL,
	CONSTRAINT "directory_company_technologies_pk" PRIMARY KEY("company_id","technology")
);
--> statement-breakpoint
CREATE INDEX "directory_company_technologies_technology_idx" ON "directory_company_technologies" USING btree ("technology","company_id");
--> statement-breakpoint
INSERT INTO "directory_company_technologies" ("company_id", "technology")
SELECT DISTINCT c."id", t FROM "directory_companies" c, unnest(c."technologies") t;
--> statement-breakpoint
-- Kept by statement triggers on directory_companies (the import's upserts and anyone else's writes).
CREATE OR REPLACE FUNCTION directory_company_technologies_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO directory_company_technologies (company_id, technology)
    SELECT DISTINCT n.id, t FROM new_rows n, unnest(n.technologies) t ON CONFLICT DO NOTHING;
  ELSIF TG_OP = 'UPDATE' THEN
    DELETE FROM directory_company_technologies d USING old_rows o JOIN new_rows n ON n.id = o.id
    WHERE d.company_id = o.id AND (n.technologies IS DISTINCT FROM o.technologies);
    INSERT INTO directory_company_technologies (company_id, technology)
    SELECT DISTINCT n.id, t FROM old_rows o JOIN new_rows n ON n.id = o.id, unnest(n.technologies) t
    WHERE n.technologies IS DISTINCT FROM o.technologies ON CONFLICT DO NOTHING;
  ELSIF TG_OP = 'DELETE' THEN
    DELETE FROM directory_company_technologies d USING old_rows o WHERE d.company_id = o.id;
  ELSE
    DELETE FROM directory_company_technologies;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "directory_companies_technologies_insert" AFTER INSERT ON "directory_companies" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION directory_company_technologies_trigger();
--> statement-breakpoint
CREATE TRIGGER "directory_companies_technologies_update" AFTER UPDATE ON "directory_companies" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION directory_company_technologies_trigger();
--> statement-breakpoint
CREATE TRIGGER "directory_companies_technologies_delete" AFTER DELETE ON "directory_companies" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION directory_company_technologies_trigger();
--> statement-breakpoint
CREATE TRIGGER "directory_companies_technologies_truncate" AFTER TRUNCATE ON "directory_companies"
  FOR EACH STATEMENT EXECUTE FUNCTION directory_company_technologies_trigger();
--> statement-breakpoint
-- The rank-ordered covering indexes (0020) also carry company_id: company filters and facet samples stay index-only.
DROP INDEX IF EXISTS "directory_people_rank_idx";
--> statement-breakpoint
CREATE INDEX "directory_people_rank_idx" ON "directory_people" USING btree ("seniority_rank","id") INCLUDE ("department","country","industry","size_range","revenue_range","founded_year","company_id");
--> statement-breakpoint
DROP INDEX IF EXISTS "directory_people_country_rank_idx";
--> statement-breakpoint
CREATE INDEX "directory_people_country_rank_idx" ON "directory_people" USING btree ("country","seniority_rank","id") INCLUDE ("department","industry","size_range","revenue_range","founded_year","company_id");
--> statement-breakpoint
DROP INDEX IF EXISTS "directory_people_department_rank_idx";
--> statement-breakpoint
CREATE INDEX "directory_people_department_rank_idx" ON "directory_people" USING btree ("department","seniority_rank","id") INCLUDE ("country","industry","size_range","revenue_range","founded_year","company_id");
--> statement-breakpoint
DROP INDEX IF EXISTS "directory_people_industry_rank_idx";
--> statement-breakpoint
CREATE INDEX "directory_people_industry_rank_idx" ON "directory_people" USING btree ("industry","seniority_rank","id") INCLUDE ("department","country","size_range","revenue_range","founded_year","company_id");
--> statement-breakpoint
DROP INDEX IF EXISTS "directory_people_title_rank_idx";
--> statement-breakpoint
CREATE INDEX "directory_people_title_rank_idx" ON "directory_people" USING btree ("title","seniority_rank","id") INCLUDE ("department","country","industry","size_range","revenue_range","founded_year","company_id");
--> statement-breakpoint
-- People by company in rank order (company name and domain filters, a company's people, the foreign key), replacing
-- the plain company_id index.
CREATE INDEX "directory_people_company_rank_idx" ON "directory_people" USING btree ("company_id","seniority_rank","id") INCLUDE ("department","country","industry","size_range","revenue_range","founded_year");
--> statement-breakpoint
DROP INDEX IF EXISTS "directory_people_company_idx";
--> statement-breakpoint
-- People by region and by city in rank order, with the columns other filters read (replacing the plain lower(region)
-- and lower(city) indexes): a place filter is counted, sampled and paged without reading the table.
CREATE INDEX "directory_people_region_rank_idx" ON "directory_people" USING btree (lower("region"),"seniority_rank","id") INCLUDE ("region","department","country","industry","size_range","revenue_range","founded_year","company_id");
--> statement-breakpoint
DROP INDEX IF EXISTS "directory_people_region_idx";
--> statement-breakpoint
CREATE INDEX "directory_people_city_rank_idx" ON "directory_people" USING btree (lower("city"),"seniority_rank","id") INCLUDE ("city","department","country","industry","size_range","revenue_range","founded_year","company_id");
--> statement-breakpoint
DROP INDEX IF EXISTS "directory_people_city_idx";
--> statement-breakpoint
-- No longer read by search (company name, domain and technology filters go through the company), and costly to keep
-- up at import: the trigram index on company names alone is 75 MB at 1,000,000 people.
DROP INDEX IF EXISTS "directory_people_company_trgm";
--> statement-breakpoint
DROP INDEX IF EXISTS "directory_people_domain_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "directory_people_tech_gin";
