-- The guarantee's credit-backs are confirmed by a re-check (issue 32 point 2): a hard bounce of an address verified
-- valid makes a pending claim; a job verifies the address again (free of charge) and gives the credit back when its
-- mail server now refuses it, or declines the claim with what it found (a report anyone can write, or an ESP event
-- signed with the organisation's own key, is not proof on its own). Claims made before were all credited. The
-- reports' credited figures are read from their claims.
ALTER TABLE "bounce_credit_backs" ADD COLUMN "state" text DEFAULT 'credited' NOT NULL;
--> statement-breakpoint
ALTER TABLE "bounce_credit_backs" ALTER COLUMN "state" SET DEFAULT 'pending';
--> statement-breakpoint
ALTER TABLE "bounce_credit_backs" ADD CONSTRAINT "bounce_credit_backs_state_valid" CHECK ("state" in ('pending', 'credited', 'declined'));
--> statement-breakpoint
ALTER TABLE "bounce_credit_backs" ADD COLUMN "user_id" uuid REFERENCES "users"("id") ON DELETE SET NULL;
--> statement-breakpoint
ALTER TABLE "bounce_credit_backs" ADD COLUMN "ledger_reason" text;
--> statement-breakpoint
ALTER TABLE "bounce_credit_backs" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "bounce_credit_backs" ADD COLUMN "checked_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "bounce_credit_backs" ADD COLUMN "check_status" text;
--> statement-breakpoint
ALTER TABLE "bounce_credit_backs" ADD COLUMN "check_reason" text;
--> statement-breakpoint
CREATE INDEX "bounce_credit_backs_pending_idx" ON "bounce_credit_backs" ("org_id", "created_at") WHERE "state" = 'pending';
--> statement-breakpoint
CREATE INDEX "bounce_credit_backs_bounce_idx" ON "bounce_credit_backs" ("bounce_id");
--> statement-breakpoint
ALTER TABLE "bounce_reports" DROP COLUMN "credited";
--> statement-breakpoint
ALTER TABLE "bounce_reports" DROP COLUMN "credits_returned";
