-- The per-account sign-in limit for the app's users and the operator console alike (platform/auth/sign-in-limit.ts):
-- failed sign-ins by realm and e-mail, a try counted from before its password is checked. The operator log's index
-- for the old operator-only count goes (the log still records every failure).
CREATE TABLE "sign_in_failures" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"realm" text NOT NULL,
	"email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "sign_in_failures_email_idx" ON "sign_in_failures" USING btree ("realm","email","created_at" DESC);
--> statement-breakpoint
CREATE INDEX "sign_in_failures_created_idx" ON "sign_in_failures" USING btree ("created_at");
--> statement-breakpoint
DROP INDEX IF EXISTS "operator_actions_sign_in_failed_idx";
