import { describe, expect, it } from 'vitest';
import type { TCallOptions, TReasonCode, TVerificationResult, TVerificationStatus } from '@verilead/verifier';
import type { TVerifier } from '../../platform/verifier/verifier';
import { boundedEmailCheck, thoroughEmailCheck } from './email-check';

/** A verifier that answers the given verdicts in turn and records each call's options. */
function scripted(verdicts: [TVerificationStatus, TReasonCode][]) {
  const calls: TCallOptions[] = [];
  const verifier = {
    verify: async (_email: string, call: TCallOptions = {}) => {
      calls.push(call);
      const [status, code] = verdicts[Math.min(calls.length - 1, verdicts.length - 1)]!;
      return { status, reason: { code, text: '' } } as unknown as TVerificationResult;
    },
  } as unknown as TVerifier;
  return { verifier, calls };
}
const prefs = { mode: 'highest_accuracy' as const, gibberishThreshold: 'high' as const, wbList: { allow: [], block: ['blocked.test'] } };
const open = () => AbortSignal.timeout(60_000);

describe('address checks of a reveal', () => {
  it('in a request: fastest turnaround, greylisting deferred, the member settings, one more try after a failed check only', async () => {
    const flaky = scripted([
      ['unknown', 'smtp_timeout'],
      ['valid', 'valid_mailbox'],
    ]);
    expect(await boundedEmailCheck(flaky.verifier, prefs, { deadline: open() })('a@b.test')).toEqual({ status: 'valid', reason: 'valid_mailbox' });
    expect(flaky.calls).toHaveLength(2);
    expect(flaky.calls[0]).toMatchObject({ mode: 'fastest_turnaround', greylisting: 'defer', gibberishThreshold: 'high', wbList: prefs.wbList });
    const grey = scripted([['unknown', 'greylisted']]);
    expect(await boundedEmailCheck(grey.verifier, prefs, { deadline: open() })('a@b.test')).toEqual({ status: 'unknown', reason: 'greylisted' });
    expect(grey.calls).toHaveLength(1);
    const gone = scripted([['invalid', 'mailbox_not_found']]);
    expect(await boundedEmailCheck(gone.verifier, prefs, { deadline: open() })('a@b.test')).toEqual({ status: 'invalid', reason: 'mailbox_not_found' });
    expect(gone.calls).toHaveLength(1);
  });

  it('in a request: out of time once the budget is spent, and the close reason once the client left', async () => {
    const any = scripted([['valid', 'valid_mailbox']]);
    expect(await boundedEmailCheck(any.verifier, prefs, { deadline: AbortSignal.abort() })('a@b.test')).toEqual({ status: 'out_of_time' });
    const left = new Error('gone');
    await expect(boundedEmailCheck(any.verifier, prefs, { deadline: open(), closed: AbortSignal.abort(left) })('a@b.test')).rejects.toBe(left);
    expect(any.calls).toHaveLength(0);
  });

  it('in a request: does not wait for a check that ignores its cancellation, nor act on its late verdict', async () => {
    const hanging = { verify: () => new Promise<never>(() => undefined) } as unknown as TVerifier;
    expect(await boundedEmailCheck(hanging, prefs, { deadline: AbortSignal.timeout(20) })('a@b.test')).toEqual({ status: 'out_of_time' });
    const closed = new AbortController();
    const late = {
      verify: async () => {
        closed.abort(new Error('gone'));
        return { status: 'valid', reason: { code: 'valid_mailbox', text: '' } } as unknown as TVerificationResult;
      },
    } as unknown as TVerifier;
    await expect(boundedEmailCheck(late, prefs, { deadline: open(), closed: closed.signal })('a@b.test')).rejects.toThrow('gone');
  });

  it("in a list: the member's mode, greylisting waited out, one more try after a pause when the check failed", async () => {
    const flaky = scripted([
      ['unknown', 'connection_failed'],
      ['catch_all', 'accept_all'],
    ]);
    const pauses: number[] = [];
    const check = thoroughEmailCheck(flaky.verifier, { ...prefs, mode: 'fastest_turnaround' }, async (ms) => {
      pauses.push(ms);
    });
    expect(await check('a@b.test')).toEqual({ status: 'catch_all', reason: 'accept_all' });
    expect(flaky.calls[0]).toMatchObject({ mode: 'fastest_turnaround', greylisting: 'wait', wbList: prefs.wbList });
    expect(pauses).toHaveLength(1);
    const down = scripted([['unknown', 'smtp_timeout']]);
    expect(await thoroughEmailCheck(down.verifier, prefs, async () => undefined)('a@b.test')).toEqual({ status: 'unknown', reason: 'smtp_timeout' });
    expect(down.calls).toHaveLength(2);
  });
});
