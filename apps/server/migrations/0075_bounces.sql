-- Bounces fed back with a credit-back guarantee (issue 32 point 2). An organisation's bounces (uploaded reports'
-- rows, ESP webhook events), unique per address, kind, source and moment so a report applied twice adds nothing;
-- the reports; the ESP webhooks (secret address, SendGrid's verification key); and the guarantee's claims, whose
-- primary key (organisation, verdict) makes each credit-back happen once under retries and concurrency.
CREATE TABLE "bounces" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL REFERENCES "organisations"("id") ON DELETE CASCADE,
	"email" text NOT NULL,
	"domain" text NOT NULL,
	"kind" text NOT NULL,
	"source" text NOT NULL,
	"bounced_at" timestamp with time zone NOT NULL,
	"reason" text,
	"code" text,
	"report_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bounces_kind_valid" CHECK ("kind" in ('hard', 'soft'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "bounces_org_event_idx" ON "bounces" ("org_id", "email", "kind", "source", "bounced_at");
--> statement-breakpoint
CREATE INDEX "bounces_org_domain_idx" ON "bounces" ("org_id", "domain");
--> statement-breakpoint
CREATE TABLE "bounce_reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL REFERENCES "organisations"("id") ON DELETE CASCADE,
	"user_id" uuid REFERENCES "users"("id") ON DELETE SET NULL,
	"file_name" text NOT NULL,
	"file_type" text NOT NULL,
	"storage_key" text NOT NULL,
	"state" text DEFAULT 'preview' NOT NULL,
	"mapping" jsonb,
	"rows" integer DEFAULT 0 NOT NULL,
	"hard" integer DEFAULT 0 NOT NULL,
	"soft" integer DEFAULT 0 NOT NULL,
	"ignored" integer DEFAULT 0 NOT NULL,
	"matched" integer DEFAULT 0 NOT NULL,
	"credited" integer DEFAULT 0 NOT NULL,
	"credits_returned" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"applied_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "bounce_reports_org_created_idx" ON "bounce_reports" ("org_id", "created_at");
--> statement-breakpoint
CREATE TABLE "bounce_webhooks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL REFERENCES "organisations"("id") ON DELETE CASCADE,
	"platform" text NOT NULL,
	"token" text NOT NULL,
	"verification_key" text,
	"events" integer DEFAULT 0 NOT NULL,
	"created_by" uuid REFERENCES "users"("id") ON DELETE SET NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "bounce_webhooks_token_idx" ON "bounce_webhooks" ("token");
--> statement-breakpoint
CREATE UNIQUE INDEX "bounce_webhooks_org_platform_idx" ON "bounce_webhooks" ("org_id", "platform");
--> statement-breakpoint
CREATE TABLE "bounce_credit_backs" (
	"org_id" uuid NOT NULL REFERENCES "organisations"("id") ON DELETE CASCADE,
	"verdict_ref" text NOT NULL,
	"email" text NOT NULL,
	"bounce_id" uuid NOT NULL REFERENCES "bounces"("id") ON DELETE CASCADE,
	"credits" integer NOT NULL,
	"transaction_id" uuid REFERENCES "credit_transactions"("id") ON DELETE SET NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bounce_credit_backs_pk" PRIMARY KEY ("org_id", "verdict_ref")
);
--> statement-breakpoint
-- The guarantee finds an address's verdicts: instant ones by organisation and address.
CREATE INDEX "instant_verifications_org_email_idx" ON "instant_verifications" ("org_id", lower("email"));
