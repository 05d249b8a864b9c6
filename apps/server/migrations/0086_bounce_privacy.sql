-- Privacy of bounces (security review). A bounce webhook's address (its token) is a secret shown once, like app
-- tokens: only its SHA-256 (hex) is kept, computed here from the existing tokens, and the webhook is found by it.
-- The organisation's data retention covers bounces: an uploaded report's file is removed after the file retention
-- (the report keeps its figures and says when its file went), and a bounce's address (and its reply text, which may
-- repeat it) goes after the result retention: the row is deleted, or, when a settled credit-back claim hangs on it
-- (the reports' credited figures are read through it), kept without them, the claim losing its address too.
ALTER TABLE "bounce_webhooks" ADD COLUMN "token_hash" text;
--> statement-breakpoint
UPDATE "bounce_webhooks" SET "token_hash" = encode(sha256(convert_to("token", 'UTF8')), 'hex');
--> statement-breakpoint
ALTER TABLE "bounce_webhooks" ALTER COLUMN "token_hash" SET NOT NULL;
--> statement-breakpoint
DROP INDEX "bounce_webhooks_token_idx";
--> statement-breakpoint
ALTER TABLE "bounce_webhooks" DROP COLUMN "token";
--> statement-breakpoint
CREATE UNIQUE INDEX "bounce_webhooks_token_hash_idx" ON "bounce_webhooks" ("token_hash");
--> statement-breakpoint
ALTER TABLE "bounce_reports" ADD COLUMN "file_deleted_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "bounces" ALTER COLUMN "email" DROP NOT NULL;
--> statement-breakpoint
ALTER TABLE "bounce_credit_backs" ALTER COLUMN "email" DROP NOT NULL;
