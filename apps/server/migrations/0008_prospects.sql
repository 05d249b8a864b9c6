CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE TABLE "directory_companies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"external_id" text NOT NULL,
	"name" text NOT NULL,
	"domain" text NOT NULL,
	"industry" text NOT NULL,
	"industry_code" text NOT NULL,
	"size_range" text NOT NULL,
	"employees" integer NOT NULL,
	"revenue_range" text NOT NULL,
	"revenue_usd" bigint,
	"founded_year" integer,
	"technologies" text[] DEFAULT '{}' NOT NULL,
	"country" text NOT NULL,
	"region" text,
	"city" text,
	"phone" text,
	"linkedin_url" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "directory_companies_external_id_unique" UNIQUE("external_id")
);
--> statement-breakpoint
CREATE TABLE "directory_people" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"external_id" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"full_name" text NOT NULL,
	"title" text NOT NULL,
	"seniority" text NOT NULL,
	"department" text NOT NULL,
	"country" text NOT NULL,
	"region" text,
	"city" text,
	"company_id" uuid,
	"company_name" text,
	"company_domain" text,
	"industry" text,
	"size_range" text,
	"revenue_range" text,
	"founded_year" integer,
	"technologies" text[] DEFAULT '{}' NOT NULL,
	"email" text,
	"email_type" text,
	"email_role" boolean DEFAULT false NOT NULL,
	"phone" text,
	"phone_type" text,
	"linkedin_url" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "directory_people_external_id_unique" UNIQUE("external_id")
);
--> statement-breakpoint
ALTER TABLE "directory_people" ADD CONSTRAINT "directory_people_company_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."directory_companies"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "directory_people_title_idx" ON "directory_people" USING btree ("title");
--> statement-breakpoint
CREATE TABLE "directory_titles" (
	"title" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE INDEX "directory_titles_trgm" ON "directory_titles" USING gin ("title" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "directory_people_name_trgm" ON "directory_people" USING gin ("full_name" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "directory_people_company_trgm" ON "directory_people" USING gin ("company_name" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "directory_people_tech_gin" ON "directory_people" USING gin ("technologies");
--> statement-breakpoint
CREATE INDEX "directory_people_country_idx" ON "directory_people" USING btree ("country","region","city");
--> statement-breakpoint
CREATE INDEX "directory_people_region_idx" ON "directory_people" USING btree (lower("region"));
--> statement-breakpoint
CREATE INDEX "directory_people_city_idx" ON "directory_people" USING btree (lower("city"));
--> statement-breakpoint
CREATE INDEX "directory_people_seniority_idx" ON "directory_people" USING btree ("seniority","department");
--> statement-breakpoint
CREATE INDEX "directory_people_industry_idx" ON "directory_people" USING btree ("industry","size_range");
--> statement-breakpoint
CREATE INDEX "directory_people_company_idx" ON "directory_people" USING btree ("company_id");
--> statement-breakpoint
CREATE INDEX "directory_people_domain_idx" ON "directory_people" USING btree ("company_domain");
--> statement-breakpoint
CREATE INDEX "directory_people_email_idx" ON "directory_people" USING btree (lower("email"));
--> statement-breakpoint
CREATE INDEX "directory_people_linkedin_idx" ON "directory_people" USING btree ("linkedin_url");
--> statement-breakpoint
CREATE INDEX "directory_companies_name_trgm" ON "directory_companies" USING gin ("name" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "directory_companies_domain_idx" ON "directory_companies" USING btree ("domain");
--> statement-breakpoint
CREATE TABLE "prospect_lists" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"lead_count" integer DEFAULT 0 NOT NULL,
	"state" text DEFAULT 'not_processed' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "prospect_lists" ADD CONSTRAINT "prospect_lists_org_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "prospect_lists" ADD CONSTRAINT "prospect_lists_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "prospect_lists_org_idx" ON "prospect_lists" USING btree ("org_id","created_at");
--> statement-breakpoint
CREATE TABLE "prospect_list_leads" (
	"list_id" uuid NOT NULL,
	"person_id" uuid NOT NULL,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "prospect_list_leads_pk" PRIMARY KEY("list_id","person_id")
);
--> statement-breakpoint
ALTER TABLE "prospect_list_leads" ADD CONSTRAINT "prospect_list_leads_list_fk" FOREIGN KEY ("list_id") REFERENCES "public"."prospect_lists"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "prospect_list_leads" ADD CONSTRAINT "prospect_list_leads_person_fk" FOREIGN KEY ("person_id") REFERENCES "public"."directory_people"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE TABLE "prospect_reveals" (
	"org_id" uuid NOT NULL,
	"person_id" uuid NOT NULL,
	"field" text NOT NULL,
	"value" text NOT NULL,
	"status" text,
	"user_id" uuid,
	"credits" integer DEFAULT 0 NOT NULL,
	"revealed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "prospect_reveals_pk" PRIMARY KEY("org_id","person_id","field")
);
--> statement-breakpoint
ALTER TABLE "prospect_reveals" ADD CONSTRAINT "prospect_reveals_org_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "prospect_reveals" ADD CONSTRAINT "prospect_reveals_person_fk" FOREIGN KEY ("person_id") REFERENCES "public"."directory_people"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE TABLE "prospect_enrich_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"list_id" uuid,
	"kind" text NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"options" jsonb NOT NULL,
	"person_ids" jsonb,
	"cursor" uuid,
	"total" integer DEFAULT 0 NOT NULL,
	"processed" integer DEFAULT 0 NOT NULL,
	"emails_revealed" integer DEFAULT 0 NOT NULL,
	"phones_revealed" integer DEFAULT 0 NOT NULL,
	"credits_charged" integer DEFAULT 0 NOT NULL,
	"job_id" uuid,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "prospect_enrich_requests" ADD CONSTRAINT "prospect_enrich_requests_org_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "prospect_enrich_requests" ADD CONSTRAINT "prospect_enrich_requests_user_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "prospect_enrich_requests_org_idx" ON "prospect_enrich_requests" USING btree ("org_id","created_at");
--> statement-breakpoint
CREATE TABLE "prospect_saved_searches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"filters" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "prospect_saved_searches" ADD CONSTRAINT "prospect_saved_searches_org_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "prospect_saved_searches" ADD CONSTRAINT "prospect_saved_searches_user_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "prospect_saved_searches_org_idx" ON "prospect_saved_searches" USING btree ("org_id","created_at");
--> statement-breakpoint
CREATE TABLE "reverse_lookups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"query" text NOT NULL,
	"person_id" uuid,
	"found" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "reverse_lookups" ADD CONSTRAINT "reverse_lookups_org_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "reverse_lookups" ADD CONSTRAINT "reverse_lookups_user_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "reverse_lookups" ADD CONSTRAINT "reverse_lookups_person_fk" FOREIGN KEY ("person_id") REFERENCES "public"."directory_people"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "reverse_lookups_org_idx" ON "reverse_lookups" USING btree ("org_id","created_at");
