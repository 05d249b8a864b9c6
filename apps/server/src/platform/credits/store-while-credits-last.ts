import { isAppError, type AppError } from '../errors/app-error';

/** The ledger's "cannot pay" answers: no credits (402), or a member's limit (403). */
function isCreditRefusal(err: unknown): err is AppError {
  return isAppError(err) && (err.httpStatus === 402 || err.httpStatus === 403);
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
