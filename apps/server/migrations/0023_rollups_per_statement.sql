-- The usage roll-ups (0010) were kept by a trigger FOR EACH ROW: every charge upserted one quarter-hour row and three
-- hourly rows, so a statement that writes many ledger entries (a grouped instant charge, a bulk chunk's batch)
-- updated the same roll-up rows once per entry. The trigger now runs once per statement over its transition table
-- and adds each bucket's sums in one upsert per table. The figures are the same.
DROP TRIGGER IF EXISTS "credit_transactions_usage_rollup" ON "credit_transactions";
--> statement-breakpoint
CREATE OR REPLACE FUNCTION analytics_rollup_credit_transactions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO usage_rollups AS r (org_id, user_id, feature, detail, bucket, charged, refunded, charges, refunds)
  SELECT org_id, coalesce(user_id, '00000000-0000-0000-0000-000000000000'::uuid),
         analytics_usage_feature(source_agent), analytics_usage_detail(source_agent, object_type),
         date_bin('15 minutes', created_at, timestamptz '2000-01-01 00:00:00+00'),
         sum(CASE WHEN kind = 'charge' THEN amount ELSE 0 END), sum(CASE WHEN kind = 'refund' THEN amount ELSE 0 END),
         count(*) FILTER (WHERE kind = 'charge'), count(*) FILTER (WHERE kind = 'refund')
  FROM new_rows WHERE kind IN ('charge', 'refund')
  GROUP BY 1, 2, 3, 4, 5
  ON CONFLICT (org_id, bucket, user_id, feature, detail) DO UPDATE SET
    charged = r.charged + excluded.charged,
    refunded = r.refunded + excluded.refunded,
    charges = r.charges + excluded.charges,
    refunds = r.refunds + excluded.refunds;
  -- The organisation's hours, once per phase (minutes past the UTC hour where a zone's hours start: 0, 30 or 45).
  INSERT INTO usage_rollups_hourly AS h (org_id, phase, bucket, feature, detail, charged, refunded, charges, refunds)
  SELECT org_id, p, date_bin('1 hour', created_at, timestamptz '2000-01-01 00:00:00+00' + make_interval(mins => p)),
         analytics_usage_feature(source_agent), analytics_usage_detail(source_agent, object_type),
         sum(CASE WHEN kind = 'charge' THEN amount ELSE 0 END), sum(CASE WHEN kind = 'refund' THEN amount ELSE 0 END),
         count(*) FILTER (WHERE kind = 'charge'), count(*) FILTER (WHERE kind = 'refund')
  FROM new_rows CROSS JOIN unnest(ARRAY[0, 30, 45]) AS p
  WHERE kind IN ('charge', 'refund')
  GROUP BY 1, 2, 3, 4, 5
  ON CONFLICT (org_id, phase, bucket, feature, detail) DO UPDATE SET
    charged = h.charged + excluded.charged,
    refunded = h.refunded + excluded.refunded,
    charges = h.charges + excluded.charges,
    refunds = h.refunds + excluded.refunds;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "credit_transactions_usage_rollup" AFTER INSERT ON "credit_transactions" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION analytics_rollup_credit_transactions();
--> statement-breakpoint
DROP FUNCTION IF EXISTS analytics_rollup_credit_transaction();
