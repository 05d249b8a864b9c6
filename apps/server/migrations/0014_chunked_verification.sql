ALTER TABLE "verify_lists" ADD COLUMN "planned_job_id" uuid;
--> statement-breakpoint
ALTER TABLE "finder_lists" ADD COLUMN "planned_job_id" uuid;
