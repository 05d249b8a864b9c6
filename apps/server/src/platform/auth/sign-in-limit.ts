import { SIGN_IN_LOCKED_MESSAGE, SIGN_IN_MAX_FAILURES, SIGN_IN_WINDOW_MINUTES } from '@verilead/contracts';
import type { TDatabase, TDb } from '../db/database';
import { AppError } from '../errors/app-error';
import type { TMaintenanceTask } from '../jobs/maintenance';
import { countRecentSignInFailures, deleteSignInFailure, insertSignInFailure, lockSignInEmail, purgeSignInFailures } from './sign-in-queries';
import type { TSignInRealm } from './tables';

/** A sign-in try taken by takeSignInAttempt: counted as a failure until `succeeded` removes it. */
export type TSignInAttempt = { succeeded: (tx: TDb) => Promise<void> };

/**
 * The per-account sign-in limit, on top of the routes' per-address limits (which a distributed guesser passes): after
 * SIGN_IN_MAX_FAILURES failed tries of one e-mail within SIGN_IN_WINDOW_MINUTES, from any address, the e-mail answers
 * 429 whatever the password, the same for an e-mail that has no account. A try counts as a failure from before its
 * password is checked (taken under a lock on the e-mail, so concurrent tries cannot pass the limit together); a
 * success removes it. Answers null when the e-mail is locked.
 */
export async function takeSignInAttempt(database: TDatabase, realm: TSignInRealm, email: string): Promise<TSignInAttempt | null> {
  const id = await database.transaction(async (tx) => {
    await lockSignInEmail(tx, realm, email);
    if ((await countRecentSignInFailures(tx, realm, email, SIGN_IN_WINDOW_MINUTES)) >= SIGN_IN_MAX_FAILURES) return null;
    return insertSignInFailure(tx, realm, email);
  });
  return id === null ? null : { succeeded: (tx) => deleteSignInFailure(tx, id) };
}

/** The answer to a locked e-mail: 429 with how long to wait. */
export function signInLockedError(): AppError {
  return new AppError('rate_limited', SIGN_IN_LOCKED_MESSAGE, { additional_info: { retry_after: SIGN_IN_WINDOW_MINUTES * 60 } });
}

/** The maintenance task deleting failures the limit no longer counts (a day old: they name e-mails anyone tried). */
export function createSignInFailuresRetentionTask(opts: { database: TDatabase }): TMaintenanceTask {
  return { name: 'sign-in-failures-retention', run: async () => ({ deleted: await purgeSignInFailures(opts.database.db, 24 * 60) }) };
}
