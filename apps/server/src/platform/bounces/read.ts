/**
 * An organisation's hard bounces on its results: a hard-bounced address reads invalid, with the bounce as evidence.
 * The reads are in read-queries.ts.
 */
import type { TBounceEvidence, TVerificationResult } from '@verilead/contracts';

export { selectHardBounces, selectHardBouncedAtDomain } from './read-queries';

function describeBounce(b: TBounceEvidence): string {
  const day = b.bounced_at.slice(0, 10);
  const detail = [b.code, b.reason].filter(Boolean).join(' ');
  return `Hard-bounced on ${day}${detail ? ` (${detail})` : ''}`;
}

/**
 * A result as the organisation sees it once the address hard-bounced after the verdict: invalid, not safe to send,
 * with the bounce beside it. A bounce older than the verdict is history the verdict already saw: left as is.
 */
export function overlayBounce<T extends Pick<TVerificationResult, 'status' | 'reason' | 'safe_to_send' | 'verified_on'>>(result: T, bounce: TBounceEvidence | undefined): T {
  if (!bounce || bounce.kind !== 'hard') return result;
  const verifiedAt = Date.parse(result.verified_on);
  if (Number.isFinite(verifiedAt) && Date.parse(bounce.bounced_at) < verifiedAt - 86_400_000) return result;
  return { ...result, status: 'invalid', safe_to_send: 'no', reason: { code: 'mailbox_not_found', text: describeBounce(bounce) }, bounce };
}
