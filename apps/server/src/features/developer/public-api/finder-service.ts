import { ZInstantFindRequest, type TInstantFindData } from '@verilead/contracts';
import type { TDeps } from '../../../platform/deps';
import { isAppError } from '../../../platform/errors/app-error';
import { httpStatusOf } from '../../../platform/errors/http-status';
import type { TVerifier } from '../../../platform/verifier/verifier';
import { findInstant } from '../../email-finder';
import { buildValidationFailure } from '../public-api-format';
import { recordAppUsage, type TAppCaller } from '../service';
import { fail, FINDER_ERROR_CODES, mapServiceError, PublicApiError } from './errors';
import { requireAppCreditRoom } from './instant-service';

/** Maps a finder service error: 400s become the operation's own failure, 404 the given one, 409 "not in the stage". */
export function mapFinderError(err: unknown, onNotFound: PublicApiError, onConflict?: PublicApiError, onInvalid?: (message: string, field: string) => PublicApiError): never {
  if (err instanceof PublicApiError) throw err;
  if (isAppError(err)) {
    const status = httpStatusOf(err);
    if (status === 404) throw onNotFound;
    if (status === 409 && onConflict) throw onConflict;
    if ((status === 400 || status === 413 || status === 415) && onInvalid) throw onInvalid(err.message, err.extra.reasons?.[0]?.field ?? 'body');
  }
  return mapServiceError(err);
}

export type TFindForAppInput = { name?: string; first_name?: string; last_name?: string; domain: string; timeout: number };

/**
 * One instant search of an app (the /v2 finder and the MCP server's find tool): the input checked by the finder's
 * contract, the app's credit limit, the finder's search and charge (found addresses only, source `instant_finder`),
 * and the app's usage. A search slower than `timeout` answers `{ queued: true, qid }` (a durable job finishes it).
 * Refusals are PublicApiErrors with the /v2 codes and messages.
 */
export async function findForApp(deps: TDeps, verifier: TVerifier, c: TAppCaller, input: TFindForAppInput): Promise<TInstantFindData> {
  const parsed = ZInstantFindRequest.safeParse({ ...input, queue: true });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    if (issue && issue.path[0] === 'name' && /unsupported characters/i.test(issue.message)) throw fail(200, FINDER_ERROR_CODES.unsupportedName, 'Unsupported characters in name fields');
    const field = String(issue?.path[0] ?? 'body');
    throw new PublicApiError(400, buildValidationFailure([{ field, location: 'body', message: `"${field}" ${issue?.message ?? 'is invalid'}`, type: 'any.invalid' }]));
  }
  await requireAppCreditRoom(deps, c);
  try {
    const found = await findInstant(deps, verifier, c.ctx, parsed.data);
    await recordAppUsage(deps.database.db, c.app, found.queued ? 0 : found.credits_charged);
    return found;
  } catch (err) {
    if (isAppError(err) && httpStatusOf(err) === 402) throw fail(402, FINDER_ERROR_CODES.instantNoCredits, 'You do not have sufficient credits for instant email finder');
    return mapFinderError(err, fail(503, null, 'Service unavailable, please try again shortly'), undefined, (message, field) =>
      new PublicApiError(400, buildValidationFailure([{ field: field === 'last_name' ? 'name' : field, location: 'body', message, type: 'any.invalid' }])),
    );
  }
}
