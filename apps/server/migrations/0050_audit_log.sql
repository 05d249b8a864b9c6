-- Issue 31 point 3: the organisation's audit log. Append-only: UPDATE is always refused, DELETE only by the retention
-- purge (which sets verilead.audit_purge for its own transaction) or when the organisation itself is deleted.
CREATE TABLE "audit_log" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "org_id" uuid NOT NULL,
  "actor_user_id" uuid,
  "actor_email" text,
  "action" text NOT NULL,
  "target_type" text,
  "target_id" text,
  "details" jsonb DEFAULT '{}'::jsonb NOT NULL,
  "ip" text,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "audit_log_org_created_idx" ON "audit_log" USING btree ("org_id", "created_at" DESC, "id");
--> statement-breakpoint
CREATE INDEX "audit_log_created_idx" ON "audit_log" USING btree ("created_at");
--> statement-breakpoint
CREATE OR REPLACE FUNCTION verilead_audit_log_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND (
       coalesce(current_setting('verilead.audit_purge', true), '') = 'on'
       OR NOT EXISTS (SELECT 1 FROM organisations o WHERE o.id = OLD.org_id)
     ) THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'the audit log is append-only (% refused)', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;
--> statement-breakpoint
CREATE TRIGGER "audit_log_append_only" BEFORE UPDATE OR DELETE ON "audit_log" FOR EACH ROW EXECUTE FUNCTION verilead_audit_log_guard();
