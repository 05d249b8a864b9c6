-- App usage counts bulk work (issue 28 point 10): a list uploaded through /v2 with an app's token records the app,
-- and each charge of its rows adds the same credits to the app's usage in the charge's transaction.
ALTER TABLE "verify_lists" ADD COLUMN "app_id" uuid REFERENCES "apps"("id") ON DELETE SET NULL;
--> statement-breakpoint
ALTER TABLE "finder_lists" ADD COLUMN "app_id" uuid REFERENCES "apps"("id") ON DELETE SET NULL;
