ALTER TABLE "payments" ADD COLUMN "action_url" text;
