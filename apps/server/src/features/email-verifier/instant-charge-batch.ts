import { randomUUID } from 'node:crypto';
import type { TDb } from '../../platform/db/database';
import { insertChargedGroup } from './instant-charge-batch-queries';
import { explainChargeError, isChargeRefusal, storeInstantResultOnce, type TInstantRowInput, type TStoredInstant } from './instant-charge';

/**
 * Concurrent charges of one payer (organisation, member, app and day), grouped into one statement.
 *
 * Every instant charge updates the same three rows of its payer (the membership, the organisation and the app), so
 * concurrent charges of one payer wait for each other's commit whatever the pool size. Instead of queueing in the
 * database, a charge that arrives while one of its payer's statements is in flight waits here, and every charge
 * that waited is then sent as ONE statement: one round trip, one lock of each row, one commit for the whole group.
 * A charge that finds nothing in flight is sent at once (no added latency when calls do not overlap).
 *
 * The group statement locks the payer's rows, reads the room every count leaves (the member's daily and life-time
 * limits, the balance, the app's credit limit) and charges the first `room` charges of the group; the others are
 * refused at once with the reason that stopped them (so near an empty balance a burst is answered in one statement,
 * not one refused statement per call). The charges still carry every guard of the single statement: should a count
 * have moved between the read and the write (another process), the statement refuses itself whole, and its charges
 * are then decided one by one through the single statement (never passing a limit).
 *
 * A charge waiting here obeys its caller's signal (a /v2 call's timeout): aborted before its statement is sent, it
 * leaves the group and is rejected with the signal's reason, with nothing stored or charged.
 */

const GROUP_MAX = 250;

type TWaiting = { input: TInstantRowInput; resolve: (row: TStoredInstant) => void; reject: (err: unknown) => void; signal?: AbortSignal; onAbort?: () => void };
type TPayerQueue = { waiting: TWaiting[] };

/**
 * Stores and charges as many of `group` (one payer's billable rows) as every count allows, in one statement: answers
 * the stored rows (the first ones of the group) and, for the rest, what they were short of. Rejects when the
 * statement refused itself whole (a count moved under it).
 */
async function storeGroupOnce(exec: TDb, group: TInstantRowInput[]): Promise<{ stored: TStoredInstant[]; shortOf: string | null }> {
  const ids = group.map(() => randomUUID());
  const { accepted, shortOf } = await insertChargedGroup(exec, group, ids);
  return {
    stored: group.slice(0, accepted).map((input, i) => ({ id: ids[i]!, result: input.result, billable: true, creditsCharged: 1 })),
    shortOf,
  };
}

const payerKey = (input: TInstantRowInput) => `${input.orgId}|${input.userId}|${input.app?.id ?? ''}|${input.app?.day ?? ''}`;

/** One charger per database handle (each process has one): the payers with a statement in flight and who waits. */
type TCharger = (input: TInstantRowInput, signal?: AbortSignal) => Promise<TStoredInstant>;
const chargers = new WeakMap<TDb, TCharger>();

function createCharger(exec: TDb): TCharger {
  const inFlight = new Map<string, TPayerQueue>();

  /** Settles one charge alone through the single statement (its refusal explained exactly). */
  const settleAlone = async (w: TWaiting) => {
    try {
      w.resolve(await storeInstantResultOnce(exec, w.input));
    } catch (err) {
      w.reject(await explainChargeError(exec, w.input, err).catch(() => err));
    }
  };

  const settleGroup = async (group: TWaiting[]) => {
    for (const w of group) if (w.onAbort) w.signal?.removeEventListener('abort', w.onAbort);
    if (group.length === 1) return settleAlone(group[0]!);
    try {
      const { stored, shortOf } = await storeGroupOnce(
        exec,
        group.map((w) => w.input),
      );
      stored.forEach((row, i) => group[i]!.resolve(row));
      const left = group.slice(stored.length);
      if (left.length > 0) {
        // Refused at once, with the reason that stopped them (read once for all of them, after the commit).
        const why = await explainChargeError(exec, left[0]!.input, new Error(`charge refused: ${shortOf ?? 'balance'}`)).catch((err: unknown) => err);
        for (const w of left) w.reject(why);
      }
    } catch (err) {
      // Refused as a whole (a count moved under it): nothing of it was stored, and each charge is decided on its own.
      if (isChargeRefusal(err)) for (const w of group) await settleAlone(w);
      // Any other failure (a lost connection): answered as it is, never retried (it may have been stored).
      else for (const w of group) w.reject(err);
    }
  };

  const drain = async (key: string, queue: TPayerQueue) => {
    while (queue.waiting.length > 0) await settleGroup(queue.waiting.splice(0, GROUP_MAX));
    inFlight.delete(key);
  };

  return (input, signal) =>
    new Promise<TStoredInstant>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const key = payerKey(input);
      const queue = inFlight.get(key);
      if (queue) {
        const w: TWaiting = { input, resolve, reject, signal };
        if (signal) {
          // Still waiting when the caller's deadline passes: out of the queue, nothing stored or charged.
          w.onAbort = () => {
            const at = queue.waiting.indexOf(w);
            if (at === -1) return;
            queue.waiting.splice(at, 1);
            reject(signal.reason);
          };
          signal.addEventListener('abort', w.onAbort, { once: true });
        }
        queue.waiting.push(w);
        return;
      }
      const fresh: TPayerQueue = { waiting: [{ input, resolve, reject }] };
      inFlight.set(key, fresh);
      void drain(key, fresh);
    });
}

/**
 * Stores an instant result and charges it when billable. Billable results of one payer that overlap in time are
 * grouped into one statement (see above); a free result is stored at once. Rejects with the error to answer, or with
 * `signal`'s reason when it aborts while the charge still waits for its statement (then nothing is stored).
 */
export function chargeInstantResult(exec: TDb, input: TInstantRowInput, signal?: AbortSignal): Promise<TStoredInstant> {
  if (!input.billable) return storeFree(exec, input);
  let charge = chargers.get(exec);
  if (!charge) {
    charge = createCharger(exec);
    chargers.set(exec, charge);
  }
  return charge(input, signal);
}

async function storeFree(exec: TDb, input: TInstantRowInput): Promise<TStoredInstant> {
  try {
    return await storeInstantResultOnce(exec, input);
  } catch (err) {
    throw await explainChargeError(exec, input, err);
  }
}
