import { createRequire } from 'node:module';
import { toAsciiDomain } from '../syntax/idn';
import { isProviderMisspelling } from './typo';

/*
 * Data sources (npm packages, read once when first needed, so a new list version arrives with a
 * dependency bump and a process restart):
 *  - disposable: `disposable-email-domains` (index.json: exact domains, wildcard.json: every subdomain).
 *  - free: `free-email-domains-list` minus every disposable domain and every misspelling of a big provider's
 *    domain (gmial.com, yahooo.com: that list mixes both in; see isProviderMisspelling in typo.ts).
 *  - role: `role-based-email-addresses`.
 */
const require = createRequire(import.meta.url);

let disposableExact: Set<string> | null = null;
let disposableWildcard: Set<string> | null = null;
let freeDomains: Set<string> | null = null;
let roleNames: Set<string> | null = null;

function loadDisposable(): { exact: Set<string>; wildcard: Set<string> } {
  if (!disposableExact || !disposableWildcard) {
    disposableExact = new Set((require('disposable-email-domains') as string[]).map((d) => d.toLowerCase()));
    disposableWildcard = new Set((require('disposable-email-domains/wildcard.json') as string[]).map((d) => d.toLowerCase()));
  }
  return { exact: disposableExact, wildcard: disposableWildcard };
}

function loadFree(): Set<string> {
  if (!freeDomains) {
    const { exact, wildcard } = loadDisposable();
    const all = (require('free-email-domains-list/build/src/constants.js') as { DOMAINS: Set<string> }).DOMAINS;
    freeDomains = new Set();
    for (const domain of all) {
      const d = domain.toLowerCase();
      if (!exact.has(d) && !wildcard.has(d) && !isProviderMisspelling(d)) freeDomains.add(d);
    }
  }
  return freeDomains;
}

function loadRoles(): Set<string> {
  if (!roleNames) roleNames = new Set((require('role-based-email-addresses') as string[]).map((r) => r.toLowerCase()));
  return roleNames;
}

/** Lower-cased ASCII domain of an address or a bare domain. */
function toDomain(addressOrDomain: string): string {
  const at = addressOrDomain.lastIndexOf('@');
  const raw = (at >= 0 ? addressOrDomain.slice(at + 1) : addressOrDomain).trim().toLowerCase();
  return toAsciiDomain(raw) || raw;
}

/** The domain itself and each parent domain: a.b.c.com → [a.b.c.com, b.c.com, c.com]. */
function listDomainAndParents(domain: string): string[] {
  const labels = domain.split('.');
  const out: string[] = [];
  for (let i = 0; i < labels.length - 1; i++) out.push(labels.slice(i).join('.'));
  return out;
}

/** True when the domain (or a parent of it) is a known disposable / temporary mail provider. */
export function checkDisposable(addressOrDomain: string): boolean {
  const domain = toDomain(addressOrDomain);
  const { exact, wildcard } = loadDisposable();
  if (exact.has(domain)) return true;
  return listDomainAndParents(domain).some((d) => wildcard.has(d) || (d !== domain && exact.has(d)));
}

/** True when the domain is a free mailbox provider (gmail.com, yahoo.com…), disposables and provider misspellings excluded. */
export function checkFreeProvider(addressOrDomain: string): boolean {
  return loadFree().has(toDomain(addressOrDomain));
}

/** True when the local part names a role or group (info, sales, postmaster…) rather than a person. `+tags` are ignored. */
export function checkRoleAccount(addressOrLocal: string): boolean {
  const at = addressOrLocal.lastIndexOf('@');
  let local = (at >= 0 ? addressOrLocal.slice(0, at) : addressOrLocal).trim().toLowerCase();
  if (local.startsWith('"') && local.endsWith('"') && local.length >= 2) local = local.slice(1, -1);
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  return loadRoles().has(local);
}
