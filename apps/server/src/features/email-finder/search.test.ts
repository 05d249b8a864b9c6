import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePeopleCorpus, startMailWorld, type TMailWorld, type TPerson } from '@verilead/mailworld';
import { MemoryCache, verifyEmail, type TVerifyOptions } from '@verilead/verifier';
import { buildCandidates, foldName, makeLastNameVariants, splitFullName } from './candidates';
import { computeConfidence, readDomainInput, searchEmail } from './search';

describe('candidates', () => {
  it('normalises accents, particles and hyphens', () => {
    expect(foldName('José Núñez')).toBe('josenunez');
    expect(foldName('Wałęsa')).toBe('walesa');
    expect(makeLastNameVariants('van der Berg')).toEqual(['vanderberg', 'berg']);
    expect(makeLastNameVariants('Lefèvre-Martin')).toEqual(['lefevremartin', 'lefevre', 'lefevre-martin']);
    expect(splitFullName('Jan van der Berg')).toEqual({ first: 'Jan', middle: null, last: 'van der Berg' });
    expect(splitFullName('Ruud Pieter de Vries')).toEqual({ first: 'Ruud', middle: 'Pieter', last: 'de Vries' });
  });

  it('orders by general priors, then by what is known of the domain', () => {
    const plain = buildCandidates({ first: 'Jane', middle: null, last: 'Doe' }, 'x.test');
    expect(plain.slice(0, 3).map((c) => c.email)).toEqual(['jane.doe@x.test', 'jdoe@x.test', 'jane@x.test']);
    const known = buildCandidates({ first: 'Jane', middle: null, last: 'Doe' }, 'x.test', { last_first: 5 });
    expect(known[0]).toMatchObject({ email: 'doe_jane@x.test', pattern: 'last_first' });
    expect(new Set(plain.map((c) => c.email)).size).toBe(plain.length);
  });

  it('computes confidence by the documented rule, the same whatever was found before at the domain', () => {
    expect(computeConfidence('valid', 'first.last')).toBe(99);
    expect(computeConfidence('valid', 'flast')).toBe(95);
    expect(computeConfidence('valid', 'fl')).toBe(90);
    expect(computeConfidence('catch_all', 'first.last', 0.32)).toBe(44);
    expect(computeConfidence('none', null)).toBe(0);
  });

  it('reads domains, URLs and company names', () => {
    expect(readDomainInput('https://www.Example.com/about')).toEqual({ domain: 'example.com' });
    expect(readDomainInput('Acme Inc')).toEqual({ company: 'Acme Inc' });
    expect(readDomainInput('bad..domain')).toHaveProperty('error');
    expect(readDomainInput('a@b.com')).toHaveProperty('error');
  });
});

describe('searchEmail against the people corpus', () => {
  let world: TMailWorld;
  let people: TPerson[];
  let options: TVerifyOptions;

  beforeAll(async () => {
    const pc = makePeopleCorpus(160, 11);
    people = pc.people;
    world = await startMailWorld({ corpus: pc.corpus, greylistDelayMs: 100 });
    options = { dnsServers: world.dnsServers, smtpPort: world.smtpPort, timeouts: { connectMs: 1_000, replyMs: 1_000 }, greylistSchedule: [150], cache: new MemoryCache(1_000) };
  });
  afterAll(async () => {
    await world?.stop();
  });

  it('finds at least 95% of people on strict domains with the right address, and marks catch-all guesses', async () => {
    const counts = new Map<string, Record<string, number>>();
    let strictTotal = 0;
    let strictRight = 0;
    for (const p of people) {
      const domainCounts = counts.get(p.domain) ?? {};
      const r = await searchEmail({ first: p.first_name, middle: p.middle_name, last: p.last_name }, p.domain, {
        verify: (e) => verifyEmail(e, options),
        includeRoleEmail: true,
        strictDomainCheck: false,
        domainCounts,
      });
      if (r.status === 'found' && !r.catch_all && r.pattern) counts.set(p.domain, { ...domainCounts, [r.pattern]: (domainCounts[r.pattern] ?? 0) + 1 });
      if (p.scenario === 'catch_all') {
        expect(r.status).toBe('found');
        expect(r.catch_all).toBe(true);
        expect(r.reason.code).toBe('catch_all_best_guess');
        expect(r.confidence_score).toBeLessThanOrEqual(75);
      } else {
        strictTotal += 1;
        if (r.email === p.email) strictRight += 1;
        if (r.status === 'found') {
          expect(r.confidence_score).toBeGreaterThanOrEqual(90);
          expect(world.truth.get(r.email!)?.status).toBe('valid');
        }
      }
    }
    expect(strictTotal).toBeGreaterThan(100);
    expect(strictRight / strictTotal).toBeGreaterThanOrEqual(0.95);
  }, 120_000);

  it('answers not found for unknown people and dead domains, and refuses catch-all guesses in strict mode', async () => {
    const verify = (e: string) => verifyEmail(e, options);
    const opts = { verify, includeRoleEmail: true, strictDomainCheck: false, domainCounts: {} };
    const nobody = await searchEmail({ first: 'Zebulon', middle: null, last: 'Quixotez' }, 'strict.test', opts);
    expect(nobody).toMatchObject({ status: 'not_found', email: null, confidence_score: 0, reason: { code: 'no_valid_candidate' } });
    const dead = await searchEmail({ first: 'Ann', middle: null, last: 'Lee' }, 'nxdomain.test', opts);
    expect(dead).toMatchObject({ status: 'not_found', reason: { code: 'domain_not_mail_enabled' }, candidates_tried: 1 });
    const strict = await searchEmail({ first: 'Ann', middle: null, last: 'Lee' }, 'acceptall.test', { ...opts, strictDomainCheck: true });
    expect(strict).toMatchObject({ status: 'not_found', catch_all: true, reason: { code: 'strict_domain_rejected' } });
  });
});
