CREATE TABLE "job_status" (
	"id" uuid PRIMARY KEY NOT NULL,
	"queue" text NOT NULL,
	"name" text NOT NULL,
	"org_id" uuid,
	"user_id" uuid,
	"progress" integer DEFAULT 0 NOT NULL,
	"cancel_requested" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP TABLE "jobs" CASCADE;--> statement-breakpoint
CREATE INDEX "job_status_name_idx" ON "job_status" USING btree ("name");--> statement-breakpoint
CREATE INDEX "job_status_created_idx" ON "job_status" USING btree ("created_at");