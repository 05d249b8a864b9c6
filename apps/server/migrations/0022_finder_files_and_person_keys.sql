-- Finder files (list results, instant history) are prepared by the downloads job and kept in "downloads" like every
-- other file; their own table is gone. Links already handed out expire with it.
DROP TABLE IF EXISTS "finder_downloads";
--> statement-breakpoint
-- A finder row's person key (normalised name and domain): the analysis finds a repeated person's first row through
-- this index instead of keeping every key of the file in memory.
ALTER TABLE "finder_list_rows" ADD COLUMN "person_key" text;
--> statement-breakpoint
CREATE INDEX "finder_list_rows_person_key_idx" ON "finder_list_rows" USING btree ("list_id","person_key") WHERE "finder_list_rows"."status" is null and "finder_list_rows"."person_key" is not null;
