import { describe, expect, it } from 'vitest';
import { makeCorpus } from './corpus';
import { DOMAINS } from './scenarios';

const REASONS: Record<string, string[]> = {
  valid: ['valid_mailbox'],
  invalid: ['invalid_syntax', 'domain_not_found', 'null_mx', 'no_mail_server', 'mailbox_not_found', 'mailbox_disabled', 'mailbox_full'],
  catch_all: ['accept_all'],
  unknown: ['greylisted', 'verifier_blocked', 'smtp_timeout', 'connection_failed', 'dns_error', 'service_unavailable', 'smtp_error'],
};

const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

describe('makeCorpus', () => {
  const corpus = makeCorpus(10000, 42);

  it('is deterministic for a seed and differs between seeds', () => {
    expect(makeCorpus(300, 7)).toEqual(makeCorpus(300, 7));
    expect(makeCorpus(300, 8).map((e) => e.email)).not.toEqual(makeCorpus(300, 7).map((e) => e.email));
    expect(makeCorpus(10000, 42).slice(0, 50)).toEqual(corpus.slice(0, 50));
  });

  it('returns exactly n unique addresses with a valid status and reason code', () => {
    expect(corpus).toHaveLength(10000);
    expect(new Set(corpus.map((e) => e.email.toLowerCase())).size).toBe(10000);
    for (const entry of corpus) expect(REASONS[entry.expected.status]).toContain(entry.expected.reason);
  });

  it('spreads over every scenario domain, mostly strict, catch-all and provider domains', () => {
    const counts = new Map<string, number>();
    for (const entry of corpus) counts.set(domainOf(entry.email), (counts.get(domainOf(entry.email)) ?? 0) + 1);
    for (const spec of DOMAINS.filter((d) => d.scenario !== 'typo' && !d.realistic)) expect(counts.get(spec.domain) ?? 0, spec.domain).toBeGreaterThan(0);
    expect(DOMAINS.filter((d) => d.scenario === 'typo').some((d) => (counts.get(d.domain) ?? 0) > 0)).toBe(true);
    const main = ['strict.test', 'initech.test', 'acceptall.test', 'umbrella.test', 'gmail.com', 'yahoo.com', 'outlook.com', 'm365.test', 'contoso.test', 'zoho.test', 'globex.test'];
    const mainShare = main.reduce((sum, d) => sum + (counts.get(d) ?? 0), 0) / corpus.length;
    expect(mainShare).toBeGreaterThan(0.6);
    const slow = ((counts.get('tarpit.test') ?? 0) + (counts.get('timeout.test') ?? 0)) / corpus.length;
    expect(slow).toBeLessThan(0.005);
  });

  it('covers every status and the flags role, free, disposable, gibberish, typo and syntax', () => {
    const statuses = new Set(corpus.map((e) => e.expected.status));
    expect([...statuses].sort()).toEqual(['catch_all', 'invalid', 'unknown', 'valid']);
    const tags = new Set(corpus.flatMap((e) => e.tags));
    for (const tag of ['role', 'free', 'disposable', 'gibberish', 'typo', 'syntax', 'greylist', 'strict']) expect(tags, tag).toContain(tag);
    for (const entry of corpus.filter((e) => e.tags.includes('typo'))) expect(entry.expected.reason).toBe('domain_not_found');
    for (const entry of corpus.filter((e) => e.tags.includes('syntax'))) expect(entry.expected.reason).toBe('invalid_syntax');
    for (const entry of corpus.filter((e) => e.tags.includes('disposable'))) expect(domainOf(entry.email)).toBe('mailinator.com');
    const valid = corpus.filter((e) => e.expected.status === 'valid').length / corpus.length;
    expect(valid).toBeGreaterThan(0.3);
    expect(corpus.filter((e) => e.expected.reason === 'mailbox_full').length).toBeGreaterThan(0);
    expect(corpus.filter((e) => e.expected.reason === 'mailbox_disabled').length).toBeGreaterThan(0);
  });

  it('builds local parts from real-looking names (first.last, flast, first…) on company domains', () => {
    const locals = corpus.filter((e) => domainOf(e.email) === 'strict.test' && !e.tags.includes('syntax') && !e.tags.includes('gibberish'))
      .map((e) => e.email.split('@')[0] as string);
    const named = locals.filter((l) => /^[a-z]+([._]?[a-z]+)?\d*$/.test(l));
    expect(named.length / locals.length).toBeGreaterThan(0.95);
    expect(locals.filter((l) => /^[a-z]+\.[a-z]+$/.test(l)).length / locals.length).toBeGreaterThan(0.25);
  });
});
