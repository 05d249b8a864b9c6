import type { TFinderPattern } from '@verilead/contracts';
import { foldName, makeLocal } from '../../platform/names/local-parts';

export { foldName, makeLocal };

/** Name particles kept as part of the last name ("van der Berg" → vanderberg, also tried as berg). */
const PARTICLES = new Set(['van', 'der', 'den', 'de', 'la', 'le', 'von', 'di', 'da', 'del', 'della', 'du', 'dos', 'das', 'do', 'ten', 'ter', 'al', 'el', 'bin', 'ibn', 'st', 'mac']);

function words(value: string): string[] {
  return value
    .trim()
    .split(/\s+/)
    .filter((w) => foldName(w).length > 0);
}

export type TPersonName = { first: string; middle: string | null; last: string };

/** Splits a full name: first word, then the last word with the particles before it, the rest as middle. */
export function splitFullName(full: string): TPersonName {
  const ws = words(full);
  if (ws.length === 0) return { first: '', middle: null, last: '' };
  if (ws.length === 1) return { first: ws[0]!, middle: null, last: '' };
  let lastStart = ws.length - 1;
  while (lastStart > 1 && PARTICLES.has(foldName(ws[lastStart - 1]!))) lastStart -= 1;
  const middle = ws.slice(1, lastStart).join(' ');
  return { first: ws[0]!, middle: middle || null, last: ws.slice(lastStart).join(' ') };
}

/** Folded variants of a last name, most likely first: all parts joined, then without particles, then the first hyphen part. */
export function makeLastNameVariants(last: string): string[] {
  const out: string[] = [];
  const add = (v: string) => {
    if (v && !out.includes(v)) out.push(v);
  };
  add(foldName(last));
  const ws = words(last);
  const core = ws.filter((w) => !PARTICLES.has(foldName(w)));
  if (core.length > 0) add(foldName(core.join('')));
  const hyphenParts = last.split('-').map((p) => p.trim()).filter(Boolean);
  if (hyphenParts.length > 1) {
    add(foldName(hyphenParts[0]!));
    add(hyphenParts.map(foldName).join('-'));
  }
  return out;
}

/**
 * General priors: the share of company addresses using each pattern (rounded from public pattern surveys of
 * B2B addresses). Used when nothing is known of a domain, and as pseudo-counts next to what is known.
 */
export const PATTERN_PRIORS: Record<TFinderPattern, number> = {
  'first.last': 0.32,
  flast: 0.18,
  first: 0.12,
  firstlast: 0.07,
  'f.last': 0.05,
  first_last: 0.04,
  lastf: 0.03,
  'last.first': 0.03,
  'first.l': 0.03,
  firstl: 0.02,
  lastfirst: 0.015,
  last: 0.015,
  f_last: 0.01,
  'first-last': 0.01,
  last_first: 0.005,
  'l.first': 0.003,
  'f.m.last': 0.003,
  'first.m.last': 0.003,
  fmlast: 0.003,
  'last-first': 0.002,
  fl: 0.001,
};

/** How many pseudo-observations the priors weigh next to a domain's known pattern counts. */
export const PRIOR_WEIGHT = 2;

export type TCandidate = { email: string; pattern: TFinderPattern; /** 0–1: how likely this pattern is at the domain. */ likelihood: number };

/**
 * The likelihood of each pattern at a domain: (count + prior × PRIOR_WEIGHT) / (total + PRIOR_WEIGHT), where counts are the
 * patterns of addresses already found valid at that domain in this installation (counts only, no personal data).
 */
export function rankPatterns(domainCounts: Partial<Record<TFinderPattern, number>>): { pattern: TFinderPattern; likelihood: number }[] {
  const total = Object.values(domainCounts).reduce((s, n) => s + (n ?? 0), 0);
  return (Object.keys(PATTERN_PRIORS) as TFinderPattern[])
    .map((pattern) => ({ pattern, likelihood: ((domainCounts[pattern] ?? 0) + PATTERN_PRIORS[pattern] * PRIOR_WEIGHT) / (total + PRIOR_WEIGHT) }))
    .sort((a, b) => b.likelihood - a.likelihood || PATTERN_PRIORS[b.pattern] - PATTERN_PRIORS[a.pattern]);
}

/**
 * Candidate addresses, most likely first: every pattern for the main spelling of the name, ordered by what is known of the
 * domain, then the same patterns for the other spellings of the last name (without particles, first hyphen part).
 * Duplicates are dropped; at most `max` come back.
 */
export function buildCandidates(name: TPersonName, domain: string, domainCounts: Partial<Record<TFinderPattern, number>> = {}, max = 24): TCandidate[] {
  const f = foldName(name.first);
  const m = foldName(name.middle ?? '');
  const ranked = rankPatterns(domainCounts);
  const seen = new Set<string>();
  const out: TCandidate[] = [];
  const variants = makeLastNameVariants(name.last);
  for (const [vi, l] of (variants.length > 0 ? variants : ['']).entries()) {
    for (const { pattern, likelihood } of ranked) {
      const local = makeLocal(pattern, f, m, l);
      if (!local || local.length > 64) continue;
      const email = `${local}@${domain}`;
      if (seen.has(email)) continue;
      seen.add(email);
      out.push({ email, pattern, likelihood: vi === 0 ? likelihood : likelihood / 4 });
    }
  }
  // Other spellings interleave by likelihood, so a rare pattern of the main spelling does not come before a common one of another.
  return out.sort((a, b) => b.likelihood - a.likelihood).slice(0, max);
}
