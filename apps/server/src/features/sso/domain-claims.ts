import { randomBytes } from 'node:crypto';
import { recordAudit } from '../../platform/audit/record';
import { Resolver } from 'node:dns/promises';
import type { TSsoDomainClaim } from '@verilead/contracts';
import { checkDisposable, checkFreeProvider } from '@verilead/verifier';
import type { TDb } from '../../platform/db/database';
import { AppError } from '../../platform/errors/app-error';
import type { TCallerContext } from '../../platform/tenancy/context';
import {
  ensureDomainToken,
  replaceDomainClaims,
  selectDomainClaim,
  selectDomainClaims,
  selectDomainToken,
  selectVerifiedElsewhere,
  updateDomainCheck,
  type TSsoDomainRow,
} from './queries';

/**
 * Proving a single sign-on domain (as GitHub and Okta do): a TXT record at `_verilead-challenge.<domain>` holding
 * `verilead-domain-verification=<the organisation's token>`, looked up through the server's configured resolver
 * (DNS_SERVERS, the verifier's; the system's when unset).
 */
export const SSO_CHALLENGE_LABEL = '_verilead-challenge';
export const SSO_CHALLENGE_PREFIX = 'verilead-domain-verification=';
const DNS_TIMEOUT_MS = 3_000;

export function challengeNameOf(domain: string): string {
  return `${SSO_CHALLENGE_LABEL}.${domain}`;
}

/** The domain and each parent that is still a name of its own: a.b.com → a.b.com, b.com. */
function domainAndParents(domain: string): string[] {
  const labels = domain.split('.');
  return labels.slice(0, -1).map((_, i) => labels.slice(i).join('.'));
}

/** Why this domain can never be claimed for single sign-on, or null when it can (the public suffix list: tldts). */
export async function findUnclaimableReason(domain: string): Promise<string | null> {
  const { parse } = await import('tldts');
  const parsed = parse(domain, { allowPrivateDomains: true });
  if (parsed.isIp) return `${domain} is an IP address, not an e-mail domain`;
  if (!parsed.domain || parsed.publicSuffix === domain) {
    return `${domain} is a public suffix (a name under which anyone registers their own domains), so it cannot be used for single sign-on`;
  }
  if (domainAndParents(domain).some((d) => checkFreeProvider(d) || checkDisposable(d))) {
    return `${domain} is a free or disposable e-mail provider: its addresses belong to many people, so it cannot be used for single sign-on`;
  }
  return null;
}

/**
 * Saves the organisation's claimed domains (inside the settings transaction): free-mail, disposable and public-suffix
 * domains are refused (400), a domain another organisation verified is refused (409); new domains start pending.
 */
export async function claimSsoDomains(tx: TDb, orgId: string, domains: string[]): Promise<void> {
  const reasons = (await Promise.all(domains.map(findUnclaimableReason))).filter((r): r is string => r !== null);
  if (reasons.length > 0) throw new AppError('validation_failed', reasons[0]!, { reasons: [{ field: 'domains', location: 'body', messages: reasons }] });
  const taken = await selectVerifiedElsewhere(tx, orgId, domains);
  if (taken) {
    const message = `${taken} is already verified for single sign-on by another organisation`;
    throw new AppError('conflict', message, { reasons: [{ field: 'domains', location: 'body', messages: [message] }] });
  }
  if (domains.length > 0) await ensureDomainToken(tx, orgId, randomBytes(16).toString('hex'));
  await replaceDomainClaims(tx, orgId, domains);
}

function toClaim(row: TSsoDomainRow, token: string): TSsoDomainClaim {
  return {
    domain: row.domain,
    status: row.verifiedAt ? 'verified' : 'pending',
    txt_name: challengeNameOf(row.domain),
    txt_value: `${SSO_CHALLENGE_PREFIX}${token}`,
    verified_at: row.verifiedAt?.toISOString() ?? null,
    checked_at: row.checkedAt?.toISOString() ?? null,
    failure: row.verifiedAt ? null : row.checkFailure,
  };
}

/** The organisation's claimed domains with the TXT record each needs and its state. */
export async function listSsoDomainClaims(exec: TDb, orgId: string): Promise<TSsoDomainClaim[]> {
  const rows = await selectDomainClaims(exec, orgId);
  if (rows.length === 0) return [];
  const token = (await selectDomainToken(exec, orgId)) ?? '';
  return rows.map((row) => toClaim(row, token));
}

/** True when the organisation proved this domain: only then do its addresses join it just in time. */
export async function isSsoDomainVerified(exec: TDb, orgId: string, domain: string): Promise<boolean> {
  return !!(await selectDomainClaim(exec, orgId, domain))?.verifiedAt;
}

/** Looks the challenge record up; answers null when it holds `expected`, else why not (shown to the owner). */
async function lookUpChallenge(dnsServers: string[], name: string, expected: string): Promise<string | null> {
  const resolver = new Resolver({ timeout: DNS_TIMEOUT_MS, tries: 2 });
  let values: string[];
  try {
    if (dnsServers.length > 0) resolver.setServers(dnsServers);
    values = (await resolver.resolveTxt(name)).map((chunks) => chunks.join('').trim());
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTFOUND' || code === 'ENODATA') return `No TXT record found for ${name}.`;
    return `The DNS look-up of ${name} did not answer (${code ?? 'error'}). Please try again in a few minutes.`;
  }
  if (values.includes(expected)) return null;
  const ours = values.find((v) => v.startsWith(SSO_CHALLENGE_PREFIX));
  if (ours) return `The TXT record at ${name} holds ${ours}, not this organisation's value ${expected}.`;
  return `No TXT record found for ${name} with the value ${expected}.`;
}

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  return e?.code === '23505' || e?.cause?.code === '23505';
}

/**
 * POST /user_preferences/sso/domains/verify: looks the domain's TXT record up now. Answers the claim: verified, or
 * still pending with the reason; 409 when another organisation verified the domain first.
 */
export async function verifySsoDomain(deps: { db: TDb; dnsServers: string[] }, ctx: TCallerContext, domain: string): Promise<TSsoDomainClaim> {
  if (ctx.role === 'analyst') throw new AppError('forbidden', 'Only the owner or a manager can configure single sign-on');
  const claim = await selectDomainClaim(deps.db, ctx.orgId, domain);
  if (!claim) throw new AppError('not_found', `${domain} is not one of your organisation's single sign-on domains. Add it and save first.`);
  const token = (await selectDomainToken(deps.db, ctx.orgId)) ?? '';
  if (claim.verifiedAt) return toClaim(claim, token);
  // A claim kept from before these rules (migration 0034) may name a domain that can never be claimed now.
  const unclaimable = await findUnclaimableReason(domain);
  if (unclaimable) throw new AppError('validation_failed', unclaimable, { reasons: [{ field: 'domain', location: 'body', messages: [unclaimable] }] });
  const takenMessage = `${domain} is already verified for single sign-on by another organisation`;
  const taken = async () => {
    await updateDomainCheck(deps.db, ctx.orgId, domain, { verifiedAt: null, failure: takenMessage });
    return new AppError('conflict', takenMessage, { reasons: [{ field: 'domain', location: 'body', messages: [takenMessage] }] });
  };
  if (await selectVerifiedElsewhere(deps.db, ctx.orgId, [domain])) throw await taken();
  const failure = await lookUpChallenge(deps.dnsServers, challengeNameOf(domain), `${SSO_CHALLENGE_PREFIX}${token}`);
  let row: TSsoDomainRow | null;
  try {
    row = await updateDomainCheck(deps.db, ctx.orgId, domain, { verifiedAt: failure ? null : new Date(), failure });
  } catch (error) {
    // Another organisation's verification of the same domain committed first (the unique index on verified domains).
    if (isUniqueViolation(error)) throw await taken();
    throw error;
  }
  // Removed, or verified by a concurrent call of our own, meanwhile: answer what is stored now.
  const now = row ?? (await selectDomainClaim(deps.db, ctx.orgId, domain));
  if (!now) throw new AppError('not_found', `${domain} is not one of your organisation's single sign-on domains. Add it and save first.`);
  if (now.verifiedAt) await recordAudit(deps.db, ctx, { action: 'sso.domain_verified', targetType: 'sso_domain', targetId: domain });
  return toClaim(now, token);
}

/** The demo seed: the demo organisation's own domain, verified (a `.test` name no DNS answers for). */
export async function seedVerifiedSsoDomain(tx: TDb, orgId: string, domain: string): Promise<void> {
  await claimSsoDomains(tx, orgId, [domain]);
  await updateDomainCheck(tx, orgId, domain, { verifiedAt: new Date(), failure: null });
}
