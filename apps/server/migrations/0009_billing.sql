CREATE TABLE "price_slabs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"currency" text NOT NULL,
	"min_credits" integer NOT NULL,
	"max_credits" integer,
	"unit_price_micros" integer NOT NULL,
	"kind" text DEFAULT 'standard' NOT NULL,
	"bonus_percent" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "price_slabs_kind_valid" CHECK ("price_slabs"."kind" in ('standard', 'discount', 'bonus')),
	CONSTRAINT "price_slabs_currency_valid" CHECK ("price_slabs"."currency" in ('USD', 'INR'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "price_slabs_currency_min_idx" ON "price_slabs" USING btree ("currency","min_credits");
--> statement-breakpoint
CREATE TABLE "billing_plans" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"interval" text NOT NULL,
	"currency" text NOT NULL,
	"price_minor" integer NOT NULL,
	"credits" integer NOT NULL,
	"seats" integer DEFAULT 1 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	CONSTRAINT "billing_plans_interval_valid" CHECK ("billing_plans"."interval" in ('monthly', 'annual', 'one_time'))
);
--> statement-breakpoint
CREATE TABLE "coupons" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"kind" text NOT NULL,
	"value" integer NOT NULL,
	"max_redemptions" integer,
	"expires_at" timestamp with time zone,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "coupons_kind_valid" CHECK ("coupons"."kind" in ('percent', 'credits'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "coupons_code_idx" ON "coupons" USING btree ("code");
--> statement-breakpoint
CREATE TABLE "billing_customers" (
	"org_id" uuid PRIMARY KEY NOT NULL REFERENCES "organisations"("id") ON DELETE cascade,
	"provider_customer_id" text NOT NULL,
	"default_payment_method" text
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" serial NOT NULL,
	"org_id" uuid NOT NULL REFERENCES "organisations"("id") ON DELETE cascade,
	"user_id" uuid REFERENCES "users"("id") ON DELETE set null,
	"provider" text NOT NULL,
	"provider_ref" text,
	"kind" text DEFAULT 'credits' NOT NULL,
	"plan_id" text,
	"credits" integer NOT NULL,
	"bonus_credits" integer DEFAULT 0 NOT NULL,
	"currency" text NOT NULL,
	"subtotal_minor" integer NOT NULL,
	"discount_minor" integer DEFAULT 0 NOT NULL,
	"tax_minor" integer DEFAULT 0 NOT NULL,
	"total_minor" integer NOT NULL,
	"coupon_id" uuid,
	"status" text DEFAULT 'pending' NOT NULL,
	"failure_message" text,
	"credit_transaction_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone,
	CONSTRAINT "payments_status_valid" CHECK ("payments"."status" in ('pending', 'requires_action', 'paid', 'failed', 'cancelled'))
);
--> statement-breakpoint
CREATE INDEX "payments_org_created_idx" ON "payments" USING btree ("org_id","created_at");
--> statement-breakpoint
CREATE UNIQUE INDEX "payments_provider_ref_idx" ON "payments" USING btree ("provider","provider_ref");
--> statement-breakpoint
CREATE TABLE "coupon_redemptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"coupon_id" uuid NOT NULL REFERENCES "coupons"("id") ON DELETE cascade,
	"org_id" uuid NOT NULL REFERENCES "organisations"("id") ON DELETE cascade,
	"user_id" uuid REFERENCES "users"("id") ON DELETE set null,
	"credits_granted" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "coupon_redemptions_once_idx" ON "coupon_redemptions" USING btree ("coupon_id","org_id");
--> statement-breakpoint
CREATE TABLE "payment_events" (
	"provider" text NOT NULL,
	"event_id" text NOT NULL,
	"type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone,
	CONSTRAINT "payment_events_provider_event_id_pk" PRIMARY KEY("provider","event_id")
);
--> statement-breakpoint
CREATE TABLE "low_credit_alerts" (
	"org_id" uuid PRIMARY KEY NOT NULL REFERENCES "organisations"("id") ON DELETE cascade,
	"alerted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
INSERT INTO "price_slabs" ("currency", "min_credits", "max_credits", "unit_price_micros", "kind", "bonus_percent") VALUES
	('USD', 1000, 9999, 8000, 'standard', 0),
	('USD', 10000, 99999, 6000, 'discount', 0),
	('USD', 100000, 999999, 4000, 'discount', 0),
	('USD', 1000000, NULL, 3000, 'bonus', 10),
	('INR', 1000, 9999, 600000, 'standard', 0),
	('INR', 10000, 99999, 450000, 'discount', 0),
	('INR', 100000, 999999, 300000, 'discount', 0),
	('INR', 1000000, NULL, 225000, 'bonus', 10);
--> statement-breakpoint
INSERT INTO "billing_plans" ("id", "name", "interval", "currency", "price_minor", "credits", "seats") VALUES
	('starter-monthly-usd', 'Starter', 'monthly', 'USD', 4800, 10000, 1),
	('growth-monthly-usd', 'Growth', 'monthly', 'USD', 24000, 50000, 5),
	('starter-annual-usd', 'Starter', 'annual', 'USD', 57600, 120000, 1),
	('growth-annual-usd', 'Growth', 'annual', 'USD', 288000, 600000, 5),
	('pack-10k-usd', '10k credits', 'one_time', 'USD', 6000, 10000, 1),
	('starter-monthly-inr', 'Starter', 'monthly', 'INR', 360000, 10000, 1),
	('starter-annual-inr', 'Starter', 'annual', 'INR', 4320000, 120000, 1),
	('pack-10k-inr', '10k credits', 'one_time', 'INR', 450000, 10000, 1);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL REFERENCES "organisations"("id") ON DELETE cascade,
	"plan_id" text NOT NULL,
	"provider" text DEFAULT 'stripe' NOT NULL,
	"provider_ref" text,
	"status" text DEFAULT 'active' NOT NULL,
	"current_period_start" timestamp with time zone DEFAULT now() NOT NULL,
	"current_period_end" timestamp with time zone NOT NULL,
	"cancel_at_period_end" boolean DEFAULT false NOT NULL,
	"cancel_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subscriptions_status_valid" CHECK ("subscriptions"."status" in ('active', 'past_due', 'cancelled'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_org_idx" ON "subscriptions" USING btree ("org_id");
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "renewal_key" text;
--> statement-breakpoint
CREATE UNIQUE INDEX "payments_renewal_key_idx" ON "payments" USING btree ("renewal_key");
