-- Data retention (issue 31 point 4): per organisation, how long uploaded files and exports (file_retention_days) and
-- verification results (result_retention_days) are kept. The maintenance job deletes what is older; a list keeps its
-- counters (the analytics aggregates) and says when its file and its result rows were deleted; instant verification
-- results are folded into quarter-hour aggregates before their rows are deleted, so analytics figures do not move.
ALTER TABLE "organisations" ADD COLUMN "file_retention_days" integer DEFAULT 30 NOT NULL;
--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "result_retention_days" integer DEFAULT 90 NOT NULL;
--> statement-breakpoint
ALTER TABLE "verify_lists" ADD COLUMN "file_deleted_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "verify_lists" ADD COLUMN "results_deleted_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "finder_lists" ADD COLUMN "file_deleted_at" timestamp with time zone;
--> statement-breakpoint
CREATE TABLE "instant_verification_rollups" (
  "org_id" uuid NOT NULL REFERENCES "organisations"("id") ON DELETE CASCADE,
  "user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "bucket" timestamp with time zone NOT NULL,
  "verified" integer DEFAULT 0 NOT NULL,
  "valid" integer DEFAULT 0 NOT NULL,
  "invalid" integer DEFAULT 0 NOT NULL,
  "catch_all" integer DEFAULT 0 NOT NULL,
  "unknown" integer DEFAULT 0 NOT NULL,
  "disposable" integer DEFAULT 0 NOT NULL,
  "gibberish" integer DEFAULT 0 NOT NULL,
  "free_account" integer DEFAULT 0 NOT NULL,
  "role_account" integer DEFAULT 0 NOT NULL,
  "billable" integer DEFAULT 0 NOT NULL,
  "safe_to_send" integer DEFAULT 0 NOT NULL,
  "valid_score_sum" double precision DEFAULT 0 NOT NULL,
  "credits" integer DEFAULT 0 NOT NULL,
  PRIMARY KEY ("org_id", "user_id", "bucket")
);
