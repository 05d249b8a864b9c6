// What the email finder answers for one person: the patterns it tries, the result and its reason, and the
// metrics over many results. Shared by the instant search, the bulk lists and the history.
import { z } from 'zod';
import { ZVerificationStatus } from './enums';

// ---------- candidates and the result ----------

/**
 * Address patterns the finder tries (f = first initial, l = last initial). Names are normalised first:
 * accents stripped, apostrophes removed, particles ("van der", "de la") kept as part of the last name.
 */
export const ZFinderPattern = z.enum([
  'first.last',
  'flast',
  'f.last',
  'first',
  'firstlast',
  'first_last',
  'last.first',
  'lastf',
  'first.l',
  'lastfirst',
  'last',
  'f_last',
  'first-last',
  'firstl',
  'last_first',
  'l.first',
  'f.m.last',
  'first.m.last',
  'fmlast',
  'last-first',
  'fl',
]);
export type TFinderPattern = z.infer<typeof ZFinderPattern>;

export const ZFinderStatus = z.enum(['found', 'not_found']);
export type TFinderStatus = z.infer<typeof ZFinderStatus>;

/** Why the finder answered what it did. */
export const ZFinderReasonCode = z.enum([
  /** A candidate was verified valid by the mail server. */
  'verified_valid',
  /** The domain accepts every address: the most likely candidate is returned with a lower confidence. */
  'catch_all_best_guess',
  /** Every candidate was rejected by the mail server. */
  'no_valid_candidate',
  /** The mail server did not give a definite answer (greylisting, timeouts, policy blocks). */
  'server_inconclusive',
  /** The domain has no mail server (NXDOMAIN, null MX, no MX/A). */
  'domain_not_mail_enabled',
  /** strict_domain_check is on and the domain accepts every address. */
  'strict_domain_rejected',
  /** The only valid address was a role address and include_role_email is off. */
  'role_excluded',
  /** No address pattern could be built from the name. */
  'name_unusable',
]);
export type TFinderReasonCode = z.infer<typeof ZFinderReasonCode>;

/** One address in a finder answer (compatible with the public API's `emails[]`). */
export const ZFoundEmail = z.object({
  email_address: z.string(),
  /** 'yes' | 'no' like the public API. */
  role: z.enum(['yes', 'no']),
  business: z.enum(['yes', 'no']),
});
export type TFoundEmail = z.infer<typeof ZFoundEmail>;

/**
 * A finder result. confidence_score 0–100 (see the rule in apps/server/src/features/email-finder/README.md):
 * verified valid 90–99 by pattern rank, catch-all best guess 30–75 by how well the pattern is known at that domain, 0 when not found.
 */
export const ZFinderResult = z.object({
  /** The address found (null when not found). */
  email: z.string().nullable(),
  status: ZFinderStatus,
  confidence_score: z.number().int().min(0).max(100),
  /** The domain accepts every address: the address is a best guess. */
  catch_all: z.boolean(),
  /** A company domain (not a free webmail provider). */
  business: z.boolean(),
  /** A role address (info@, sales@…). */
  role: z.boolean(),
  reason: z.object({ code: ZFinderReasonCode, text: z.string() }),
  /** The pattern of the address found (null when not found). */
  pattern: ZFinderPattern.nullable(),
  /** The engine's verdict on the address returned (null when not found). */
  verification_status: ZVerificationStatus.nullable(),
  first_name: z.string(),
  middle_name: z.string().nullable(),
  last_name: z.string(),
  full_name: z.string(),
  domain: z.string(),
  company: z.object({ name: z.string().nullable() }),
  /** Candidates checked with the mail server. */
  candidates_tried: z.number().int().nonnegative(),
  /** Public-API compatible: the address found as a one-item array (empty when not found). */
  emails: z.array(ZFoundEmail),
  total: z.number().int().nonnegative(),
  found_on: z.string(),
});
export type TFinderResult = z.infer<typeof ZFinderResult>;

/** Billing rule: only found results cost credits (CREDITS_PER_FIND each); not found is free. */
export const CREDITS_PER_FIND = 1;

// ---------- metrics ----------

/** Finder metrics (spec section 3). confidence_score is the average over found results (0–100). */
export const ZFinderStats = z.object({
  total: z.number().int().nonnegative(),
  found: z.number().int().nonnegative(),
  not_found: z.number().int().nonnegative(),
  business: z.number().int().nonnegative(),
  role: z.number().int().nonnegative(),
  catch_all: z.number().int().nonnegative(),
  confidence_score: z.number().min(0).max(100),
  billable: z.number().int().nonnegative(),
});
export type TFinderStats = z.infer<typeof ZFinderStats>;
