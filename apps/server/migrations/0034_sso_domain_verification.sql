-- SSO domain claims must be proved (issue 27): a domain counts for SSO discovery and just-in-time membership only once
-- its organisation published a DNS TXT record with its token. Every domain claimed so far is kept, as pending.
CREATE TABLE "sso_domains" (
	"org_id" uuid NOT NULL,
	"domain" text NOT NULL,
	"verified_at" timestamp with time zone,
	"checked_at" timestamp with time zone,
	"check_failure" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sso_domains_org_id_domain_pk" PRIMARY KEY("org_id","domain")
);
--> statement-breakpoint
ALTER TABLE "sso_domains" ADD CONSTRAINT "sso_domains_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "sso_domains_verified_domain_uq" ON "sso_domains" USING btree ("domain") WHERE "sso_domains"."verified_at" is not null;
--> statement-breakpoint
CREATE TABLE "sso_domain_tokens" (
	"org_id" uuid PRIMARY KEY NOT NULL,
	"token" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sso_domain_tokens" ADD CONSTRAINT "sso_domain_tokens_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
INSERT INTO "sso_domains" ("org_id", "domain")
  SELECT DISTINCT s."org_id", lower(d.value)
  FROM "org_sso_settings" s, jsonb_array_elements_text(CASE WHEN jsonb_typeof(s."config"->'domains') = 'array' THEN s."config"->'domains' ELSE '[]'::jsonb END) AS d(value)
  ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO "sso_domain_tokens" ("org_id", "token")
  SELECT o."org_id", replace(gen_random_uuid()::text, '-', '') FROM (SELECT DISTINCT "org_id" FROM "sso_domains") o
  ON CONFLICT DO NOTHING;
