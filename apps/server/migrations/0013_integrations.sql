CREATE TABLE "integration_accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"platform" text NOT NULL,
	"name" text NOT NULL,
	"credentials" text NOT NULL,
	"remote_account" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "integration_imports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"account_id" uuid,
	"account_name" text NOT NULL,
	"platform" text NOT NULL,
	"remote_list_id" text NOT NULL,
	"remote_list_name" text NOT NULL,
	"remote_total" integer,
	"state" text DEFAULT 'importing' NOT NULL,
	"cursor" text,
	"pages_done" integer DEFAULT 0 NOT NULL,
	"imported" integer DEFAULT 0 NOT NULL,
	"verify_list_id" uuid NOT NULL,
	"verify_list_created" integer DEFAULT 0 NOT NULL,
	"write_back" jsonb NOT NULL,
	"write_cursor" integer DEFAULT 0 NOT NULL,
	"written_back" integer DEFAULT 0 NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "integration_import_members" (
	"import_id" uuid NOT NULL,
	"seq" bigint NOT NULL,
	"remote_id" text NOT NULL,
	"email" text NOT NULL,
	"first_name" text DEFAULT '' NOT NULL,
	"last_name" text DEFAULT '' NOT NULL,
	CONSTRAINT "integration_import_members_import_id_seq_pk" PRIMARY KEY("import_id","seq")
);
--> statement-breakpoint
ALTER TABLE "integration_accounts" ADD CONSTRAINT "integration_accounts_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_accounts" ADD CONSTRAINT "integration_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_imports" ADD CONSTRAINT "integration_imports_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_imports" ADD CONSTRAINT "integration_imports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_imports" ADD CONSTRAINT "integration_imports_account_id_integration_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."integration_accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_import_members" ADD CONSTRAINT "integration_import_members_import_id_integration_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."integration_imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "integration_accounts_org_platform_name_idx" ON "integration_accounts" USING btree ("org_id","platform",lower("name"));--> statement-breakpoint
CREATE INDEX "integration_imports_org_created_idx" ON "integration_imports" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "integration_import_members_remote_idx" ON "integration_import_members" USING btree ("import_id","remote_id");
