import { checkDisposable, checkFreeProvider, checkRoleAccount } from '../checks/lists';
import { checkGibberish } from '../checks/gibberish';
import { detectProvider } from '../checks/provider';
import { KNOWN_PROVIDER_DOMAINS, suggestTypo } from '../checks/typo';
import { isoTime } from '../clock';
import { resolveMailRouting, type TMailRouting } from '../dns/resolve-mail-hosts';
import { parseAddress } from '../syntax/parse-address';
import type { TCallOptions, TVerificationResult } from '../types';
import { abortReason } from './cancellation';
import { makeRun, type TResolvedOptions, type TRun } from './options';
import type { TOutcome } from './retry-policy';
import type { SmtpStage } from './smtp-stage';
import { computeVerdict, REASON_TEXTS } from './verdict';

function checkUserList(address: string, domain: string, allow: Set<string>, block: Set<string>): TOutcome | null {
  const lower = address.toLowerCase();
  if (block.has(lower)) return { status: 'invalid', reason: 'blocked_by_user_list' };
  if (allow.has(lower)) return { status: 'valid', reason: 'allowed_by_user_list' };
  if (block.has(domain)) return { status: 'invalid', reason: 'blocked_by_user_list' };
  if (allow.has(domain)) return { status: 'valid', reason: 'allowed_by_user_list' };
  return null;
}

/**
 * The verification of one address, stage by stage: syntax, the local checks (disposable, free, role, gibberish), the
 * caller's allow / block list, DNS (mail routing; a typo fix when the domain has no mail), the SMTP stage, and the
 * verdict. Never throws for the address's sake (unexpected failures become unknown / smtp_error); rejects only when
 * the call is cancelled, since a cancellation is not a verdict.
 */
export class VerificationPipeline {
  /** Lookups in flight per domain: concurrent addresses of one domain share one DNS resolution. */
  private readonly routing = new Map<string, Promise<TMailRouting>>();

  constructor(
    private readonly options: TResolvedOptions,
    private readonly smtp: SmtpStage,
  ) {}

  async run(email: string, call: TCallOptions, onParked: TRun['onParked']): Promise<TVerificationResult> {
    const { clock } = this.options;
    const run = makeRun(this.options, call, onParked);
    const { start } = run;
    const parsed = parseAddress(email);
    const local = parsed.local;
    const domain = parsed.ok ? parsed.domain : parsed.domain.toLowerCase();
    const flags = {
      disposable: domain ? checkDisposable(domain) : false,
      free: domain ? checkFreeProvider(domain) : false,
      role: local ? checkRoleAccount(local) : false,
      gibberish: local ? checkGibberish(local, run.threshold) : false,
    };
    let outcome: TOutcome;
    let mxHost: string | null = null;
    let greylistCount = 0;
    let suggestion: string | null = null;
    try {
      if (run.signal?.aborted) throw abortReason(run.signal);
      if (!parsed.ok) {
        outcome = { status: 'invalid', reason: 'invalid_syntax', text: `Invalid syntax: ${parsed.error}.` };
      } else {
        const listed = checkUserList(parsed.address, parsed.domain, run.allow, run.block);
        if (listed) outcome = listed;
        else {
          const routing = await this.resolveRouting(parsed.domain);
          if (routing.kind === 'mx') {
            mxHost = routing.hosts[0]?.exchange ?? null;
            const smtp = await this.smtp.verify(run, routing.hosts, parsed.address, parsed.domain, parsed.smtputf8);
            outcome = smtp.outcome;
            greylistCount = smtp.greylistCount;
            mxHost = smtp.mxHost ?? mxHost;
          } else {
            if (routing.kind === 'nxdomain') outcome = { status: 'invalid', reason: 'domain_not_found' };
            else if (routing.kind === 'null_mx') outcome = { status: 'invalid', reason: 'null_mx' };
            else if (routing.kind === 'no_mail') outcome = { status: 'invalid', reason: 'no_mail_server' };
            else outcome = { status: 'unknown', reason: 'dns_error', text: `${REASON_TEXTS.dns_error} ${routing.detail}.` };
            if (routing.kind !== 'dns_error') suggestion = await this.findSuggestion(parsed.local, parsed.domain);
          }
        }
      }
    } catch (error) {
      if (run.signal?.aborted) throw abortReason(run.signal);
      outcome = { status: 'unknown', reason: 'smtp_error', text: `Verification failed unexpectedly: ${(error as Error).message}` };
    }
    // A domain that cannot receive mail (no such domain, null MX, no mail server) is no mailbox provider: not a free account.
    if (outcome.reason === 'domain_not_found' || outcome.reason === 'null_mx' || outcome.reason === 'no_mail_server') flags.free = false;
    const provider = detectProvider(mxHost);
    const verdict = computeVerdict({
      status: outcome.status,
      reason: outcome.reason,
      disposable: flags.disposable,
      free: flags.free,
      role: flags.role,
      gibberish: flags.gibberish,
      greylistCount,
      provider,
    });
    const end = clock.now();
    return {
      email,
      status: outcome.status,
      reason: { code: outcome.reason, text: outcome.text ?? REASON_TEXTS[outcome.reason] },
      safe_to_send: verdict.safe_to_send,
      suggested_email_address: suggestion,
      disposable: flags.disposable,
      free_account: flags.free,
      role_account: flags.role,
      gibberish: flags.gibberish,
      mx_record: mxHost,
      smtp_provider: provider,
      verified_on: isoTime(end),
      ai_verdict: verdict.ai_verdict,
      greylist_count: greylistCount,
      account: local,
      domain,
      time_taken: Math.max(0, end - start),
      deliverability_score: verdict.deliverability_score,
      transcript: run.transcript,
    };
  }

  private resolveRouting(domain: string): Promise<TMailRouting> {
    const pending = this.routing.get(domain);
    if (pending) return pending;
    const lookup = resolveMailRouting(this.options.dns, domain).finally(() => this.routing.delete(domain));
    this.routing.set(domain, lookup);
    return lookup;
  }

  /** A typo fix, offered only when the original domain has no mail and the candidate is a known provider or has MX. */
  private async findSuggestion(local: string, domain: string): Promise<string | null> {
    const candidate = suggestTypo(domain);
    if (!candidate) return null;
    if ((KNOWN_PROVIDER_DOMAINS as readonly string[]).includes(candidate)) return `${local}@${candidate}`;
    const routing = await resolveMailRouting(this.options.dns, candidate);
    return routing.kind === 'mx' && !routing.implicit ? `${local}@${candidate}` : null;
  }
}
