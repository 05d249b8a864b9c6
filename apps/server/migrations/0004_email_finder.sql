CREATE TABLE "finder_domain_patterns" (
	"domain" text NOT NULL,
	"pattern" text NOT NULL,
	"valid_count" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "finder_domain_patterns_domain_pattern_pk" PRIMARY KEY("domain","pattern")
);
--> statement-breakpoint
CREATE TABLE "finder_downloads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"list_id" uuid,
	"file_type" text NOT NULL,
	"file_name" text NOT NULL,
	"storage_key" text NOT NULL,
	"row_count" integer NOT NULL,
	"size_bytes" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "finder_instant" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"state" text NOT NULL,
	"input" jsonb NOT NULL,
	"status" text,
	"email" text,
	"full_name" text DEFAULT '' NOT NULL,
	"domain" text DEFAULT '' NOT NULL,
	"result" jsonb,
	"credits_charged" integer DEFAULT 0 NOT NULL,
	"error" text,
	"job_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "finder_list_rows" (
	"list_id" uuid NOT NULL,
	"row_number" integer NOT NULL,
	"cells" jsonb NOT NULL,
	"first_name" text DEFAULT '' NOT NULL,
	"middle_name" text,
	"last_name" text DEFAULT '' NOT NULL,
	"domain" text DEFAULT '' NOT NULL,
	"skip_reason" text,
	"status" text,
	"result" jsonb,
	"billable" boolean DEFAULT false NOT NULL,
	CONSTRAINT "finder_list_rows_list_id_row_number_pk" PRIMARY KEY("list_id","row_number")
);
--> statement-breakpoint
CREATE TABLE "finder_lists" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"file_name" text NOT NULL,
	"file_type" text NOT NULL,
	"storage_key" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"has_header" boolean NOT NULL,
	"header" jsonb NOT NULL,
	"mapping" jsonb NOT NULL,
	"state" text DEFAULT 'not_processed' NOT NULL,
	"activity" text,
	"row_count" integer DEFAULT 0 NOT NULL,
	"searchable_count" integer DEFAULT 0 NOT NULL,
	"skipped_count" integer DEFAULT 0 NOT NULL,
	"counters" jsonb NOT NULL,
	"job_id" uuid,
	"stopped_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "finder_downloads" ADD CONSTRAINT "finder_downloads_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finder_downloads" ADD CONSTRAINT "finder_downloads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finder_instant" ADD CONSTRAINT "finder_instant_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finder_instant" ADD CONSTRAINT "finder_instant_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finder_list_rows" ADD CONSTRAINT "finder_list_rows_list_id_finder_lists_id_fk" FOREIGN KEY ("list_id") REFERENCES "public"."finder_lists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finder_lists" ADD CONSTRAINT "finder_lists_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finder_lists" ADD CONSTRAINT "finder_lists_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "finder_downloads_org_idx" ON "finder_downloads" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE INDEX "finder_instant_org_created_idx" ON "finder_instant" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE INDEX "finder_lists_org_created_idx" ON "finder_lists" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE INDEX "finder_lists_org_file_idx" ON "finder_lists" USING btree ("org_id","file_name");