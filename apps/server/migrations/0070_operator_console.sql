-- Issue 31 point 1: the operator console. Operators are not members of any organisation: their own accounts, sessions
-- and one-time links (set the password), the operator-side log of what they did, and the idempotency keys of their
-- credit adjustments. Users and organisations can be suspended; an owner grants support access until a time.
CREATE TABLE "operators" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "email" text NOT NULL,
  "name" text NOT NULL,
  "password_hash" text,
  "invited_by" uuid,
  "disabled_at" timestamp with time zone,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "operators_email_unique" ON "operators" USING btree ("email");
--> statement-breakpoint
CREATE TABLE "operator_sessions" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "operator_id" uuid NOT NULL REFERENCES "operators"("id") ON DELETE CASCADE,
  "token_hash" text NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "expires_at" timestamp with time zone NOT NULL,
  "revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "operator_sessions_token_hash_unique" ON "operator_sessions" USING btree ("token_hash");
--> statement-breakpoint
CREATE TABLE "operator_links" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "operator_id" uuid NOT NULL REFERENCES "operators"("id") ON DELETE CASCADE,
  "token_hash" text NOT NULL,
  "expires_at" timestamp with time zone NOT NULL,
  "used_at" timestamp with time zone,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "operator_links_token_hash_unique" ON "operator_links" USING btree ("token_hash");
--> statement-breakpoint
CREATE TABLE "operator_actions" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "operator_id" uuid REFERENCES "operators"("id") ON DELETE SET NULL,
  "operator_email" text NOT NULL,
  "action" text NOT NULL,
  "org_id" uuid,
  "target_type" text,
  "target_id" text,
  "details" jsonb DEFAULT '{}'::jsonb NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "operator_actions_created_idx" ON "operator_actions" USING btree ("created_at" DESC);
--> statement-breakpoint
CREATE INDEX "operator_actions_org_idx" ON "operator_actions" USING btree ("org_id", "created_at" DESC);
--> statement-breakpoint
CREATE TABLE "operator_credit_adjustments" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "org_id" uuid NOT NULL REFERENCES "organisations"("id") ON DELETE CASCADE,
  "idempotency_key" text NOT NULL,
  "operator_id" uuid REFERENCES "operators"("id") ON DELETE SET NULL,
  "amount" integer NOT NULL,
  "reason" text NOT NULL,
  "transaction_id" uuid,
  "balance_after" integer NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "operator_credit_adjustments_amount_nonzero" CHECK ("amount" <> 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "operator_credit_adjustments_key_unique" ON "operator_credit_adjustments" USING btree ("org_id", "idempotency_key");
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "suspended_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "suspended_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "support_access_until" timestamp with time zone;
