-- Operator console hardening: every operator sign-in and failure is recorded in the operator-side log (with the
-- address it came from); an account's recent failures (known e-mail or not) lock its sign-in for a while. This index
-- counts one e-mail's failures of the last minutes without reading the whole log.
CREATE INDEX "operator_actions_sign_in_failed_idx" ON "operator_actions" USING btree ("operator_email", "created_at" DESC) WHERE "action" = 'operator.sign_in_failed';
