ALTER TABLE "verify_lists" ADD COLUMN "planned_job_id" uuid;
