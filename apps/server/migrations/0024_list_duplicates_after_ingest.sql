-- A list's duplicates are marked once its whole file is stored (one statement over the keys that may repeat), so the
-- (list_id, dedupe_key) index no longer has to be kept up for every row inserted while a file is analysed. Each
-- duplicate names its unique row (first_row), which exports read through the primary key.
ALTER TABLE "verify_list_emails" ADD COLUMN "first_row" integer;
--> statement-breakpoint
UPDATE "verify_list_emails" d SET "first_row" = u.first_row
FROM (
  SELECT list_id, dedupe_key, min(row_number) AS first_row FROM "verify_list_emails" WHERE kind = 'unique' GROUP BY list_id, dedupe_key
) u
WHERE d.kind = 'duplicate' AND d.list_id = u.list_id AND d.dedupe_key = u.dedupe_key;
--> statement-breakpoint
DROP INDEX IF EXISTS "verify_list_emails_dedupe_idx";
