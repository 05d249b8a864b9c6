import { isAppError, type AppError } from '../errors/app-error';
import { isOutOfCredits } from './ledger';

/** The ledger's "cannot pay" answers: no credits or a member's limit, or the member is no longer active. */
function isCreditRefusal(err: unknown): err is AppError {
  return isOutOfCredits(err) || (isAppError(err) && err.code === 'account_inactive');
}

/**
 * Stores a batch of paid results with `store` (one transaction that charges them). When the credits run out
 * mid-batch, stores what can still be paid one by one, in order. Answers the refusal that stopped it, or null when
 * everything was stored; any other error is thrown.
 */
export async function storeWhileCreditsLast<T>(items: T[], store: (batch: T[]) => Promise<void>): Promise<AppError | null> {
  if (items.length === 0) return null;
  try {
    await store(items);
    return null;
  } catch (err) {
    if (!isCreditRefusal(err)) throw err;
    for (const item of items) {
      try {
        await store([item]);
      } catch (inner) {
        if (isCreditRefusal(inner)) return inner;
        throw inner;
      }
    }
    return err;
  }
}
