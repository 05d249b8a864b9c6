-- The operator console's view of the internet (issue 31 point 1): mail hosts an operator paused (every process, api
-- and worker, reads them every few seconds and holds new verifications for them), and each process's latest view of
-- its mail hosts (one row per process, replaced every few seconds; rows of processes silent for an hour are deleted).
CREATE TABLE "mail_host_pauses" (
	"host" text PRIMARY KEY NOT NULL,
	"note" text,
	"paused_by" text,
	"paused_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mail_host_snapshots" (
	"process_id" text PRIMARY KEY NOT NULL,
	"role" text NOT NULL,
	"hostname" text NOT NULL,
	"pid" integer NOT NULL,
	"hosts" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
