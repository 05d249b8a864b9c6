CREATE TABLE "events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"user_id" uuid,
	"type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "org_sso_settings" (
	"org_id" uuid PRIMARY KEY NOT NULL,
	"config" jsonb NOT NULL,
	"client_secret_enc" text,
	"certificate" text,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_settings" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"ev" jsonb,
	"ef" jsonb,
	"prospect" jsonb,
	"notifications" jsonb,
	"wb_list_modified_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wb_list_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"list_type" text NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "instant_verifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"email" text NOT NULL,
	"status" text NOT NULL,
	"result" jsonb NOT NULL,
	"billable" boolean NOT NULL,
	"credits_charged" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "verify_list_emails" (
	"list_id" uuid NOT NULL,
	"row_number" integer NOT NULL,
	"email" text NOT NULL,
	"dedupe_key" text NOT NULL,
	"kind" text NOT NULL,
	"status" text,
	"result" jsonb,
	"billable" boolean DEFAULT false NOT NULL,
	"verified_at" timestamp with time zone,
	CONSTRAINT "verify_list_emails_list_id_row_number_pk" PRIMARY KEY("list_id","row_number")
);
--> statement-breakpoint
CREATE TABLE "verify_lists" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"file_name" text NOT NULL,
	"file_type" text NOT NULL,
	"source" text DEFAULT 'upload' NOT NULL,
	"storage_key" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"email_column" integer NOT NULL,
	"has_header" boolean NOT NULL,
	"state" text DEFAULT 'non_verified' NOT NULL,
	"activity" text,
	"analysis_state" text DEFAULT 'pending' NOT NULL,
	"analysis_error" text,
	"row_count" integer DEFAULT 0 NOT NULL,
	"unique_count" integer DEFAULT 0 NOT NULL,
	"duplicate_count" integer DEFAULT 0 NOT NULL,
	"syntax_error_count" integer DEFAULT 0 NOT NULL,
	"counters" jsonb NOT NULL,
	"mode" text,
	"verify_job_id" uuid,
	"stopped_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"verified_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "downloads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"list_id" uuid,
	"format" text,
	"file_type" text NOT NULL,
	"columns" jsonb NOT NULL,
	"params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"file_name" text NOT NULL,
	"storage_key" text,
	"row_count" integer,
	"size_bytes" integer,
	"job_id" uuid,
	"error" text,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "org_sso_settings" ADD CONSTRAINT "org_sso_settings_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_settings" ADD CONSTRAINT "user_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_settings" ADD CONSTRAINT "user_settings_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wb_list_entries" ADD CONSTRAINT "wb_list_entries_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wb_list_entries" ADD CONSTRAINT "wb_list_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instant_verifications" ADD CONSTRAINT "instant_verifications_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instant_verifications" ADD CONSTRAINT "instant_verifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verify_list_emails" ADD CONSTRAINT "verify_list_emails_list_id_verify_lists_id_fk" FOREIGN KEY ("list_id") REFERENCES "public"."verify_lists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verify_lists" ADD CONSTRAINT "verify_lists_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verify_lists" ADD CONSTRAINT "verify_lists_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "downloads" ADD CONSTRAINT "downloads_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "downloads" ADD CONSTRAINT "downloads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "events_org_created_idx" ON "events" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE INDEX "events_type_created_idx" ON "events" USING btree ("type","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "wb_list_entries_user_type_value_uq" ON "wb_list_entries" USING btree ("user_id","list_type","value");--> statement-breakpoint
CREATE INDEX "wb_list_entries_org_idx" ON "wb_list_entries" USING btree ("org_id");--> statement-breakpoint
CREATE INDEX "instant_verifications_user_created_idx" ON "instant_verifications" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "verify_list_emails_dedupe_idx" ON "verify_list_emails" USING btree ("list_id","dedupe_key");--> statement-breakpoint
CREATE INDEX "verify_list_emails_pending_idx" ON "verify_list_emails" USING btree ("list_id","row_number") WHERE "verify_list_emails"."kind" = 'unique' and "verify_list_emails"."status" is null;--> statement-breakpoint
CREATE INDEX "verify_lists_org_created_idx" ON "verify_lists" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE INDEX "verify_lists_org_file_idx" ON "verify_lists" USING btree ("org_id","file_name");--> statement-breakpoint
CREATE INDEX "downloads_org_created_idx" ON "downloads" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE INDEX "downloads_list_idx" ON "downloads" USING btree ("list_id");