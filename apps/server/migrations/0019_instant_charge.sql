-- The instant charge is one statement (features/email-verifier/instant-charge.ts): when one of its checks refuses
-- (member limit, balance, app credit limit), it calls this function, whose error undoes the whole statement.
CREATE OR REPLACE FUNCTION verilead_refuse_charge(reason text) RETURNS integer LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'charge refused: %', reason USING ERRCODE = 'P0001', HINT = reason;
END
$$;
