ALTER TABLE "apps" ADD COLUMN "form_guard" jsonb;--> statement-breakpoint
CREATE TABLE "form_guard_checks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"app_id" uuid NOT NULL,
	"request_id" text NOT NULL,
	"type" text NOT NULL,
	"value" text NOT NULL,
	"is_acceptable" integer NOT NULL,
	"reason" text,
	"credits_charged" integer DEFAULT 0 NOT NULL,
	"details" jsonb NOT NULL,
	"ip" text,
	"page_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "form_guard_counters" (
	"app_id" uuid NOT NULL,
	"scope_key" text NOT NULL,
	"window" text NOT NULL,
	"window_start" bigint NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "form_guard_counters_pk" PRIMARY KEY("app_id","scope_key","window","window_start")
);
--> statement-breakpoint
ALTER TABLE "form_guard_checks" ADD CONSTRAINT "form_guard_checks_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_guard_checks" ADD CONSTRAINT "form_guard_checks_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_guard_counters" ADD CONSTRAINT "form_guard_counters_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "form_guard_checks_request_unique" ON "form_guard_checks" USING btree ("app_id","request_id");--> statement-breakpoint
CREATE INDEX "form_guard_checks_org_idx" ON "form_guard_checks" USING btree ("org_id","created_at");
