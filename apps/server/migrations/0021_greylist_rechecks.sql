ALTER TABLE "verify_list_emails" ADD COLUMN "greylist_rechecks" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "verify_list_emails" ADD COLUMN "recheck_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "verify_lists" ADD COLUMN "greylist_waiting" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "verify_lists" ADD COLUMN "greylist_recheck_at" timestamp with time zone;
--> statement-breakpoint
CREATE INDEX "verify_list_emails_recheck_idx" ON "verify_list_emails" USING btree ("list_id","recheck_at") WHERE "verify_list_emails"."status" is null and "verify_list_emails"."recheck_at" is not null;
