-- Organisation-wide reports and the dashboard add up a range of an organisation's instant verifications: read
-- them by organisation and time (as finder_instant is), not by scanning the table.
CREATE INDEX IF NOT EXISTS "instant_verifications_org_created_idx" ON "instant_verifications" USING btree ("org_id","created_at");
