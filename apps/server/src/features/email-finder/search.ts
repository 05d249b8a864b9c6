import { readFinderDomain, type TFinderPattern, type TFinderReasonCode, type TFinderResult, type TVerificationResult } from '@verilead/contracts';
import { buildCandidates, foldName, PATTERN_PRIORS, type TCandidate, type TPersonName } from './candidates';

/** What the search needs of the engine: one verification at a time (the engine caches DNS and catch-all per domain). */
export type TVerifyOne = (email: string) => Promise<TVerificationResult>;

export type TSearchOptions = {
  verify: TVerifyOne;
  includeRoleEmail: boolean;
  strictDomainCheck: boolean;
  /** Patterns already found valid at the domain (counts only). */
  domainCounts: Partial<Record<TFinderPattern, number>>;
  /** At most this many SMTP probes per person (default 12). */
  maxProbes?: number;
  companyName?: string | null;
  now?: () => Date;
};

/** Reasons that end the search at once: the domain itself cannot receive mail. */
const DOMAIN_DEAD = new Set(['domain_not_found', 'null_mx', 'no_mail_server']);
/** Reasons that say the server gave no usable answer for the domain (trying more candidates would say the same). */
const SERVER_INCONCLUSIVE = new Set(['dns_error', 'connection_failed', 'smtp_timeout', 'verifier_blocked', 'service_unavailable']);

const REASON_TEXTS: Record<TFinderReasonCode, string> = {
  verified_valid: 'The mail server confirmed this mailbox exists',
  catch_all_best_guess: 'The domain accepts every address, so the mailbox cannot be confirmed: this is the most likely address from the patterns used at this domain',
  no_valid_candidate: 'The mail server rejected every likely address for this person',
  server_inconclusive: 'The mail server did not give a definite answer (it may be greylisting, slow or blocking checks); try again later',
  domain_not_mail_enabled: 'The domain cannot receive email (no mail server or the domain does not exist)',
  strict_domain_rejected: 'The domain accepts every address and strict domain check is on, so no guess is returned',
  role_excluded: 'The only address found is a role address and role addresses are excluded in your settings',
  name_unusable: 'No address pattern can be built from this name',
};

/** The most common pattern's prior: a verified address of that pattern scores 99. */
const TOP_PRIOR = Math.max(...Object.values(PATTERN_PRIORS));

/**
 * The one confidence rule (0–100) of quick and bulk searches, documented in README.md:
 * - verified valid: 90 + round(9 × prior / top prior), prior = the pattern's general share (PATTERN_PRIORS): the mail
 *   server confirmed the mailbox, and a common pattern (first.last 99, flast 95) is more surely this person's than a
 *   rare one (fl 90). It does not depend on what was found before at the domain, so the same person scores the same
 *   in a quick search and in a list, first or last;
 * - catch-all best guess: 30 + round(45 × likelihood), likelihood = the pattern's smoothed likelihood at the domain
 *   (priors when unknown) → 30–75 (catch-all domains never add valid finds, so this too stays the same);
 * - not found: 0.
 */
export function computeConfidence(kind: 'valid' | 'catch_all' | 'none', pattern: TFinderPattern | null, likelihood = 0): number {
  if (kind === 'none' || !pattern) return 0;
  if (kind === 'valid') return Math.min(99, 90 + Math.round((9 * PATTERN_PRIORS[pattern]) / TOP_PRIOR));
  return Math.min(75, 30 + Math.round(45 * Math.max(0, Math.min(1, likelihood))));
}

export type TSearchOutcome = TFinderResult & {
  /** The verification behind the answer (null when not found). */
  verification: TVerificationResult | null;
};

/** Searches one person's address: verifies candidates in order until one is valid (see README.md for the rules). */
export async function searchEmail(name: TPersonName, domain: string, opts: TSearchOptions): Promise<TSearchOutcome> {
  const now = opts.now ?? (() => new Date());
  const fullName = [name.first, name.middle, name.last].filter(Boolean).join(' ');
  const base = {
    first_name: name.first,
    middle_name: name.middle,
    last_name: name.last,
    full_name: fullName,
    domain,
    company: { name: opts.companyName ?? null },
  };
  const finish = (
    code: TFinderReasonCode,
    found: { candidate: TCandidate; verification: TVerificationResult; kind: 'valid' | 'catch_all' } | null,
    tried: number,
    flags: { business: boolean; role: boolean },
  ): TSearchOutcome => {
    const email = found?.candidate.email ?? null;
    const role = found ? found.verification.role_account : false;
    const business = found ? !found.verification.free_account : flags.business;
    return {
      ...base,
      email,
      status: found ? 'found' : 'not_found',
      confidence_score: computeConfidence(found?.kind ?? 'none', found?.candidate.pattern ?? null, found?.candidate.likelihood ?? 0),
      catch_all: found?.kind === 'catch_all' || code === 'strict_domain_rejected',
      business,
      role,
      reason: { code, text: REASON_TEXTS[code] },
      pattern: found?.candidate.pattern ?? null,
      verification_status: found?.verification.status ?? null,
      candidates_tried: tried,
      emails: email ? [{ email_address: email, role: role ? 'yes' : 'no', business: business ? 'yes' : 'no' }] : [],
      total: email ? 1 : 0,
      found_on: now().toISOString(),
      verification: found?.verification ?? null,
    };
  };

  if (!foldName(name.first)) return finish('name_unusable', null, 0, { business: true, role: false });
  const candidates = buildCandidates(name, domain, opts.domainCounts);
  if (candidates.length === 0) return finish('name_unusable', null, 0, { business: true, role: false });
  const maxProbes = opts.maxProbes ?? 12;
  let tried = 0;
  let inconclusive = false;
  let roleExcluded = false;
  let business = true;
  for (const candidate of candidates.slice(0, maxProbes)) {
    const r = await opts.verify(candidate.email);
    tried += 1;
    business = !r.free_account;
    if (r.status === 'valid') {
      if (r.role_account && !opts.includeRoleEmail) {
        roleExcluded = true;
        continue;
      }
      return finish('verified_valid', { candidate, verification: r, kind: 'valid' }, tried, { business, role: r.role_account });
    }
    if (r.status === 'catch_all') {
      if (opts.strictDomainCheck) return finish('strict_domain_rejected', null, tried, { business, role: false });
      // The most likely candidate (the first) is the best guess: the server would accept any of them.
      const best = candidates[0]!;
      return finish('catch_all_best_guess', { candidate: best, verification: { ...r, email: best.email }, kind: 'catch_all' }, tried, { business, role: r.role_account });
    }
    if (r.status === 'invalid' && DOMAIN_DEAD.has(r.reason.code)) return finish('domain_not_mail_enabled', null, tried, { business, role: false });
    if (r.status === 'unknown') {
      inconclusive = true;
      if (SERVER_INCONCLUSIVE.has(r.reason.code)) break;
    }
  }
  if (inconclusive) return finish('server_inconclusive', null, tried, { business, role: false });
  return finish(roleExcluded ? 'role_excluded' : 'no_valid_candidate', null, tried, { business, role: false });
}

/**
 * Reads what the user typed as a domain: `{ domain }`, `{ company }` for a company name (no directory yet) or
 * `{ error }`. The one rule lives in the contracts, so the web form checks exactly what the server accepts.
 */
export const readDomainInput = readFinderDomain;
