import { CREDITS_PER_FIND, FINDER_COMPANY_NAME_UNSUPPORTED, type TFinderPattern, type TFinderResult } from '@verilead/contracts';
import type { TDb } from '../../platform/db/database';
import { AppError } from '../../platform/errors/app-error';
import { type TCallerContext } from '../../platform/tenancy/context';
import { assertCreditsAvailable } from '../credits';
import { getUserPreferences } from '../settings';
import { selectDomainPatterns } from './queries';
import { type TSearchOutcome } from './search';

export type TFinderPrefs = { includeRoleEmail: boolean; strictDomainCheck: boolean };

export async function getFinderPrefs(exec: TDb, ctx: Pick<TCallerContext, 'userId' | 'orgId'>): Promise<TFinderPrefs> {
  const prefs = await getUserPreferences(exec, ctx);
  return { includeRoleEmail: prefs.ef_settings.include_role_email, strictDomainCheck: prefs.ef_settings.strict_domain_check };
}

export function badRequest(field: string, message: string): never {
  throw new AppError('validation_failed', message, { reasons: [{ field, location: 'body', messages: [message] }] });
}

/** A company name instead of a domain: no companies directory exists yet (the same words as the web form's). */
export const NO_DIRECTORY = FINDER_COMPANY_NAME_UNSUPPORTED;

/** The search's stored form (no verification transcript). */
export function toStoredResult(r: TSearchOutcome): TFinderResult {
  const { verification: _v, ...rest } = r;
  return rest;
}

export async function requireCredits(exec: TDb, ctx: TCallerContext, need = CREDITS_PER_FIND) {
  await assertCreditsAvailable(exec, ctx, need);
}

/** Domain pattern counts with an in-memory layer (a bulk job sees its own finds at once). */
export function createPatternBook(exec: TDb) {
  const cache = new Map<string, Record<string, number>>();
  return {
    async get(domain: string): Promise<Partial<Record<TFinderPattern, number>>> {
      let counts = cache.get(domain);
      if (!counts) {
        counts = await selectDomainPatterns(exec, domain);
        cache.set(domain, counts);
      }
      return counts as Partial<Record<TFinderPattern, number>>;
    },
    note(domain: string, pattern: string) {
      const counts = cache.get(domain) ?? {};
      counts[pattern] = (counts[pattern] ?? 0) + 1;
      cache.set(domain, counts);
    },
  };
}
