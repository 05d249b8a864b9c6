-- New contacts of a connected platform list verified automatically (issue 32 point 3): opt-in per imported list; a
-- poll job pages through the platform list and verifies the members not seen before, each charged once.
CREATE TABLE "integration_auto_verify" (
  "import_id" uuid PRIMARY KEY NOT NULL REFERENCES "integration_imports"("id") ON DELETE CASCADE,
  "org_id" uuid NOT NULL REFERENCES "organisations"("id") ON DELETE CASCADE,
  "enabled" boolean NOT NULL DEFAULT true,
  "polled_at" timestamp with time zone,
  "added" integer NOT NULL DEFAULT 0,
  "last_error" text,
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  "updated_at" timestamp with time zone NOT NULL DEFAULT now()
);
