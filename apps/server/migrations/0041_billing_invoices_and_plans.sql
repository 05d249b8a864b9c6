-- Invoices are numbered without gaps, at payment: a payment gets its number in the transaction that marks it paid,
-- from one counter row (a rolled-back payment gives its number back). Unpaid payments (drafts, abandoned or declined
-- checkouts) have no number and are not invoices.
ALTER TABLE "payments" ALTER COLUMN "number" DROP DEFAULT;
--> statement-breakpoint
ALTER TABLE "payments" ALTER COLUMN "number" DROP NOT NULL;
--> statement-breakpoint
DROP SEQUENCE IF EXISTS "payments_number_seq";
--> statement-breakpoint
UPDATE "payments" SET "number" = NULL WHERE "status" <> 'paid';
--> statement-breakpoint
CREATE UNIQUE INDEX "payments_number_idx" ON "payments" ("number");
--> statement-breakpoint
CREATE TABLE "invoice_counters" (
  "id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
  "last_number" integer NOT NULL,
  CONSTRAINT "invoice_counters_one_row" CHECK ("id" = 1)
);
--> statement-breakpoint
INSERT INTO "invoice_counters" ("id", "last_number") SELECT 1, coalesce(max("number"), 0) FROM "payments";
--> statement-breakpoint
-- What an invoice says: the period a plan payment pays for, and the buyer's billing details as they were when paid.
ALTER TABLE "payments" ADD COLUMN "period_start" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "period_end" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "buyer" jsonb;
--> statement-breakpoint
-- The buyer's billing details (the owner edits them on the billing screen) and the seller's (the operator's price file).
CREATE TABLE "billing_profiles" (
  "org_id" uuid PRIMARY KEY NOT NULL REFERENCES "organisations"("id") ON DELETE CASCADE,
  "name" text NOT NULL,
  "address" text NOT NULL DEFAULT '',
  "tax_id" text NOT NULL DEFAULT '',
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing_seller" (
  "id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
  "name" text NOT NULL,
  "address" text NOT NULL DEFAULT '',
  "tax_id" text NOT NULL DEFAULT '',
  CONSTRAINT "billing_seller_one_row" CHECK ("id" = 1)
);
