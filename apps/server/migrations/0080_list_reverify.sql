-- Lists that stay verified (issue 32 point 3): a list's re-verification schedule, its runs (scheduled re-checks of
-- aged results, and the verification of contacts newly added to a connected platform list) and, per run, every row it
-- re-checked with the result it had before (the changes the list shows and writes back).
CREATE TABLE "verify_list_schedules" (
  "list_id" uuid PRIMARY KEY NOT NULL REFERENCES "verify_lists"("id") ON DELETE CASCADE,
  "org_id" uuid NOT NULL REFERENCES "organisations"("id") ON DELETE CASCADE,
  "user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "period" text NOT NULL,
  "age_days" integer NOT NULL,
  "next_run_at" timestamp with time zone NOT NULL,
  "cost_per_run" integer NOT NULL DEFAULT 0,
  "last_run_at" timestamp with time zone,
  "skipped_reason" text,
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  "updated_at" timestamp with time zone NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX "verify_list_schedules_due_idx" ON "verify_list_schedules" ("next_run_at");
--> statement-breakpoint
CREATE TABLE "verify_list_runs" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "list_id" uuid NOT NULL REFERENCES "verify_lists"("id") ON DELETE CASCADE,
  "org_id" uuid NOT NULL REFERENCES "organisations"("id") ON DELETE CASCADE,
  "user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "kind" text NOT NULL,
  "due_at" timestamp with time zone NOT NULL,
  "cutoff" timestamp with time zone,
  "from_row" integer,
  "state" text NOT NULL DEFAULT 'queued',
  "reason" text,
  "planned" integer NOT NULL DEFAULT 0,
  "rechecked" integer NOT NULL DEFAULT 0,
  "charged" integer NOT NULL DEFAULT 0,
  "changed" integer NOT NULL DEFAULT 0,
  "transitions" jsonb NOT NULL DEFAULT '{}'::jsonb,
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  "started_at" timestamp with time zone,
  "finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "verify_list_runs_once_idx" ON "verify_list_runs" ("list_id", "kind", "due_at");
--> statement-breakpoint
CREATE INDEX "verify_list_runs_list_created_idx" ON "verify_list_runs" ("list_id", "created_at");
--> statement-breakpoint
CREATE TABLE "verify_list_row_changes" (
  "run_id" uuid NOT NULL REFERENCES "verify_list_runs"("id") ON DELETE CASCADE,
  "org_id" uuid NOT NULL REFERENCES "organisations"("id") ON DELETE CASCADE,
  "list_id" uuid NOT NULL,
  "row_number" integer NOT NULL,
  "previous_status" text,
  "previous_verified_at" timestamp with time zone,
  "status" text NOT NULL,
  CONSTRAINT "verify_list_row_changes_pk" PRIMARY KEY ("run_id", "row_number")
);
