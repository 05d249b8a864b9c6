CREATE TABLE "usage_rollups" (
	"org_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"feature" text NOT NULL,
	"detail" text NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"charged" bigint DEFAULT 0 NOT NULL,
	"refunded" bigint DEFAULT 0 NOT NULL,
	"charges" integer DEFAULT 0 NOT NULL,
	"refunds" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_rollups_pk" PRIMARY KEY("org_id","bucket","user_id","feature","detail")
);
--> statement-breakpoint
ALTER TABLE "usage_rollups" ADD CONSTRAINT "usage_rollups_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "usage_rollups_org_user_bucket_idx" ON "usage_rollups" USING btree ("org_id","user_id","bucket");
--> statement-breakpoint
CREATE TABLE "usage_rollups_hourly" (
	"org_id" uuid NOT NULL,
	"phase" smallint NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"feature" text NOT NULL,
	"detail" text NOT NULL,
	"charged" bigint DEFAULT 0 NOT NULL,
	"refunded" bigint DEFAULT 0 NOT NULL,
	"charges" integer DEFAULT 0 NOT NULL,
	"refunds" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_rollups_hourly_pk" PRIMARY KEY("org_id","phase","bucket","feature","detail")
);
--> statement-breakpoint
ALTER TABLE "usage_rollups_hourly" ADD CONSTRAINT "usage_rollups_hourly_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION analytics_usage_feature(agent text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN agent IN ('bulk_verify', 'instant_verify') OR agent LIKE '%verif%' THEN 'email_verifier'
    WHEN agent IN ('bulk_finder', 'instant_finder') OR agent LIKE '%finder%' THEN 'email_finder'
    WHEN agent IN ('enrich_list', 'enrich_lead', 'add_lead') OR agent LIKE '%prospect%' OR agent LIKE '%lead%' THEN 'prospect'
    WHEN agent LIKE '%form_guard%' OR agent LIKE '%widget%' THEN 'form_guard'
    ELSE 'other'
  END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION analytics_usage_detail(agent text, object_type text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN object_type ILIKE '%phone%' THEN 'phone'
    WHEN object_type ILIKE '%name%' THEN 'name'
    WHEN agent = 'add_lead' OR object_type ILIKE '%lead%' THEN 'lead'
    WHEN agent LIKE 'instant%' THEN 'instant'
    WHEN agent LIKE 'bulk%' THEN 'bulk'
    WHEN object_type ILIKE '%email%' THEN 'email'
    ELSE 'other'
  END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION analytics_rollup_credit_transaction() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.kind IN ('charge', 'refund') THEN
    INSERT INTO usage_rollups AS r (org_id, user_id, feature, detail, bucket, charged, refunded, charges, refunds)
    VALUES (
      NEW.org_id,
      coalesce(NEW.user_id, '00000000-0000-0000-0000-000000000000'::uuid),
      analytics_usage_feature(NEW.source_agent),
      analytics_usage_detail(NEW.source_agent, NEW.object_type),
      date_bin('15 minutes', NEW.created_at, timestamptz '2000-01-01 00:00:00+00'),
      CASE WHEN NEW.kind = 'charge' THEN NEW.amount ELSE 0 END,
      CASE WHEN NEW.kind = 'refund' THEN NEW.amount ELSE 0 END,
      CASE WHEN NEW.kind = 'charge' THEN 1 ELSE 0 END,
      CASE WHEN NEW.kind = 'refund' THEN 1 ELSE 0 END
    )
    ON CONFLICT (org_id, bucket, user_id, feature, detail) DO UPDATE SET
      charged = r.charged + excluded.charged,
      refunded = r.refunded + excluded.refunded,
      charges = r.charges + excluded.charges,
      refunds = r.refunds + excluded.refunds;
    -- The organisation's hours, once per phase (minutes past the UTC hour where a zone's hours start: 0, 30 or 45).
    INSERT INTO usage_rollups_hourly AS h (org_id, phase, bucket, feature, detail, charged, refunded, charges, refunds)
    SELECT NEW.org_id, p, date_bin('1 hour', NEW.created_at, timestamptz '2000-01-01 00:00:00+00' + make_interval(mins => p)),
      analytics_usage_feature(NEW.source_agent), analytics_usage_detail(NEW.source_agent, NEW.object_type),
      CASE WHEN NEW.kind = 'charge' THEN NEW.amount ELSE 0 END,
      CASE WHEN NEW.kind = 'refund' THEN NEW.amount ELSE 0 END,
      CASE WHEN NEW.kind = 'charge' THEN 1 ELSE 0 END,
      CASE WHEN NEW.kind = 'refund' THEN 1 ELSE 0 END
    FROM unnest(ARRAY[0, 30, 45]) AS p
    ON CONFLICT (org_id, phase, bucket, feature, detail) DO UPDATE SET
      charged = h.charged + excluded.charged,
      refunded = h.refunded + excluded.refunded,
      charges = h.charges + excluded.charges,
      refunds = h.refunds + excluded.refunds;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "credit_transactions_usage_rollup" AFTER INSERT ON "credit_transactions" FOR EACH ROW EXECUTE FUNCTION analytics_rollup_credit_transaction();
--> statement-breakpoint
INSERT INTO "usage_rollups" (org_id, user_id, feature, detail, bucket, charged, refunded, charges, refunds)
SELECT org_id, coalesce(user_id, '00000000-0000-0000-0000-000000000000'::uuid), analytics_usage_feature(source_agent), analytics_usage_detail(source_agent, object_type),
       date_bin('15 minutes', created_at, timestamptz '2000-01-01 00:00:00+00'),
       sum(CASE WHEN kind = 'charge' THEN amount ELSE 0 END), sum(CASE WHEN kind = 'refund' THEN amount ELSE 0 END),
       count(*) FILTER (WHERE kind = 'charge'), count(*) FILTER (WHERE kind = 'refund')
FROM "credit_transactions" WHERE kind IN ('charge', 'refund')
GROUP BY 1, 2, 3, 4, 5;
--> statement-breakpoint
INSERT INTO "usage_rollups_hourly" (org_id, phase, bucket, feature, detail, charged, refunded, charges, refunds)
SELECT org_id, p, date_bin('1 hour', created_at, timestamptz '2000-01-01 00:00:00+00' + make_interval(mins => p)),
       analytics_usage_feature(source_agent), analytics_usage_detail(source_agent, object_type),
       sum(CASE WHEN kind = 'charge' THEN amount ELSE 0 END), sum(CASE WHEN kind = 'refund' THEN amount ELSE 0 END),
       count(*) FILTER (WHERE kind = 'charge'), count(*) FILTER (WHERE kind = 'refund')
FROM "credit_transactions", unnest(ARRAY[0, 30, 45]) AS p WHERE kind IN ('charge', 'refund')
GROUP BY 1, 2, 3, 4, 5;
