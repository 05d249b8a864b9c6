-- Prospect search speed: a stored seniority rank (the relevance sort) with indexes that serve
-- "filter + order by rank + limit" without sorting every match, and facet roll-ups kept by statement triggers.
ALTER TABLE "directory_people" ADD COLUMN "seniority_rank" smallint GENERATED ALWAYS AS (CASE "seniority"
  WHEN 'owner' THEN 1 WHEN 'founder' THEN 2 WHEN 'c_suite' THEN 3 WHEN 'partner' THEN 4 WHEN 'vp' THEN 5 WHEN 'head' THEN 6
  WHEN 'director' THEN 7 WHEN 'manager' THEN 8 WHEN 'senior' THEN 9 WHEN 'entry' THEN 10 WHEN 'intern' THEN 11 ELSE 12 END) STORED NOT NULL;
--> statement-breakpoint
-- Each rank-ordered index carries the other company and place columns, so counts and page ids of searches filtered
-- by them come from index-only scans (no table pages; the import vacuums so the visibility map allows it).
CREATE INDEX "directory_people_rank_idx" ON "directory_people" USING btree ("seniority_rank","id") INCLUDE ("department","country","industry","size_range","revenue_range","founded_year");
--> statement-breakpoint
CREATE INDEX "directory_people_country_rank_idx" ON "directory_people" USING btree ("country","seniority_rank","id") INCLUDE ("department","industry","size_range","revenue_range","founded_year");
--> statement-breakpoint
CREATE INDEX "directory_people_department_rank_idx" ON "directory_people" USING btree ("department","seniority_rank","id") INCLUDE ("country","industry","size_range","revenue_range","founded_year");
--> statement-breakpoint
CREATE INDEX "directory_people_industry_rank_idx" ON "directory_people" USING btree ("industry","seniority_rank","id") INCLUDE ("department","country","size_range","revenue_range","founded_year");
--> statement-breakpoint
CREATE INDEX "directory_people_title_rank_idx" ON "directory_people" USING btree ("title","seniority_rank","id") INCLUDE ("department","country","industry","size_range","revenue_range","founded_year");
--> statement-breakpoint
-- Replaced by the rank-ordered indexes above.
DROP INDEX IF EXISTS "directory_people_title_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "directory_people_country_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "directory_people_seniority_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "directory_people_industry_idx";
--> statement-breakpoint
CREATE TABLE "directory_facet_rollups" (
	"filter_facet" text NOT NULL,
	"filter_value" text NOT NULL,
	"facet" text NOT NULL,
	"value" text NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "directory_facet_rollups_pk" PRIMARY KEY("filter_facet","filter_value","facet","value")
);
--> statement-breakpoint
-- The roll-up rows of a set of people, each counted with its sign: (filter '', '') holds every facet value's count
-- (facet '_total': the people), and (filter seniority|department|country, its value) the same among those people.
CREATE OR REPLACE FUNCTION directory_facet_apply(added directory_people[], removed directory_people[]) RETURNS void LANGUAGE sql AS $$
  WITH d AS (
    SELECT 1 AS sign, a.* FROM unnest(added) a
    UNION ALL SELECT -1, r.* FROM unnest(removed) r
  ), f AS (
    SELECT d.id, d.sign, d.seniority, d.department, d.country, x.facet, x.value
    FROM d, LATERAL (VALUES ('_total', ''), ('seniority', d.seniority), ('department', d.department), ('country', d.country),
      ('industry', d.industry), ('size_range', d.size_range), ('revenue_range', d.revenue_range)) x(facet, value)
    WHERE x.value IS NOT NULL
    UNION ALL
    SELECT d.id, d.sign, d.seniority, d.department, d.country, 'technologies', t FROM d, unnest(d.technologies) t
  ), deltas AS (
    SELECT '' AS ff, '' AS fv, facet, value, sum(sign) AS n FROM f GROUP BY facet, value
    UNION ALL SELECT 'seniority', seniority, facet, value, sum(sign) FROM f GROUP BY seniority, facet, value
    UNION ALL SELECT 'department', department, facet, value, sum(sign) FROM f GROUP BY department, facet, value
    UNION ALL SELECT 'country', country, facet, value, sum(sign) FROM f GROUP BY country, facet, value
  )
  INSERT INTO directory_facet_rollups AS r (filter_facet, filter_value, facet, value, n)
  SELECT ff, fv, facet, value, n FROM deltas WHERE n <> 0 ORDER BY 1, 2, 3, 4
  ON CONFLICT (filter_facet, filter_value, facet, value) DO UPDATE SET n = r.n + excluded.n
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION directory_facet_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM directory_facet_apply((SELECT coalesce(array_agg(n::directory_people), '{}') FROM new_rows n), '{}');
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM directory_facet_apply((SELECT coalesce(array_agg(n::directory_people), '{}') FROM new_rows n), (SELECT coalesce(array_agg(o::directory_people), '{}') FROM old_rows o));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM directory_facet_apply('{}', (SELECT coalesce(array_agg(o::directory_people), '{}') FROM old_rows o));
  ELSE
    DELETE FROM directory_facet_rollups;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "directory_people_facets_insert" AFTER INSERT ON "directory_people" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION directory_facet_trigger();
--> statement-breakpoint
CREATE TRIGGER "directory_people_facets_update" AFTER UPDATE ON "directory_people" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION directory_facet_trigger();
--> statement-breakpoint
CREATE TRIGGER "directory_people_facets_delete" AFTER DELETE ON "directory_people" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION directory_facet_trigger();
--> statement-breakpoint
CREATE TRIGGER "directory_people_facets_truncate" AFTER TRUNCATE ON "directory_people"
  FOR EACH STATEMENT EXECUTE FUNCTION directory_facet_trigger();
--> statement-breakpoint
-- Today's people, counted once (later writes keep the counts through the triggers).
WITH f AS (
  SELECT d.seniority, d.department, d.country, x.facet, x.value
  FROM directory_people d, LATERAL (VALUES ('_total', ''), ('seniority', d.seniority), ('department', d.department), ('country', d.country),
    ('industry', d.industry), ('size_range', d.size_range), ('revenue_range', d.revenue_range)) x(facet, value)
  WHERE x.value IS NOT NULL
  UNION ALL
  SELECT d.seniority, d.department, d.country, 'technologies', t FROM directory_people d, unnest(d.technologies) t
)
INSERT INTO directory_facet_rollups (filter_facet, filter_value, facet, value, n)
SELECT '', '', facet, value, count(*) FROM f GROUP BY facet, value
UNION ALL SELECT 'seniority', seniority, facet, value, count(*) FROM f GROUP BY seniority, facet, value
UNION ALL SELECT 'department', department, facet, value, count(*) FROM f GROUP BY department, facet, value
UNION ALL SELECT 'country', country, facet, value, count(*) FROM f GROUP BY country, facet, value;
