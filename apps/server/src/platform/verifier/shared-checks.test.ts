import { describe, expect, it } from 'vitest';
import { shareIdenticalChecks } from './shared-checks';

type TOptions = { mode?: string; wbList?: { allow: string[]; block: string[] }; signal?: AbortSignal };

/** A verification that waits until released, counting the calls it got and the signals that aborted them. */
function slowVerifier() {
  const calls: { address: string; options: TOptions; release: (status: string) => void }[] = [];
  let aborted = 0;
  const verify = (address: string, options: TOptions = {}) =>
    new Promise<{ email: string; status: string }>((resolve, reject) => {
      options.signal?.addEventListener('abort', () => {
        aborted += 1;
        reject(options.signal!.reason);
      });
      calls.push({ address, options, release: (status) => resolve({ email: address, status }) });
    });
  return { verify, calls, aborted: () => aborted };
}

describe('identical checks in flight share one verification', () => {
  it('answers 50 concurrent calls for one address and options with one verification, each with its own copy', async () => {
    const v = slowVerifier();
    const shared = shareIdenticalChecks(v.verify);
    const answers = Array.from({ length: 50 }, () => shared('alice@strict.test', { mode: 'highest_accuracy' }));
    expect(v.calls).toHaveLength(1);
    v.calls[0]!.release('valid');
    const results = await Promise.all(answers);
    expect(results.every((r) => r.status === 'valid')).toBe(true);
    expect(new Set(results).size).toBe(50);
    // Once answered, the next call verifies again (nothing is cached).
    void shared('alice@strict.test', { mode: 'highest_accuracy' });
    expect(v.calls).toHaveLength(2);
  });

  it('verifies separately when the address or any option differs', async () => {
    const v = slowVerifier();
    const shared = shareIdenticalChecks(v.verify);
    const lists = { allow: [], block: ['alice@strict.test'] };
    void shared('alice@strict.test', { mode: 'highest_accuracy' });
    void shared('alice@strict.test', { mode: 'fastest_turnaround' });
    void shared('bob@strict.test', { mode: 'highest_accuracy' });
    void shared('alice@strict.test', { mode: 'highest_accuracy', wbList: lists });
    void shared('alice@strict.test', { mode: 'highest_accuracy', wbList: { allow: [], block: ['alice@strict.test'] } });
    expect(v.calls.map((c) => [c.address, c.options.mode, c.options.wbList?.block.length ?? 0])).toEqual([
      ['alice@strict.test', 'highest_accuracy', 0],
      ['alice@strict.test', 'fastest_turnaround', 0],
      ['bob@strict.test', 'highest_accuracy', 0],
      ['alice@strict.test', 'highest_accuracy', 1],
    ]);
  });

  it('rejects a cancelled call at once and goes on for the others; cancels the verification when nobody waits', async () => {
    const v = slowVerifier();
    const shared = shareIdenticalChecks(v.verify);
    const first = new AbortController();
    const second = new AbortController();
    const a = shared('carol@strict.test', { signal: first.signal });
    const b = shared('carol@strict.test', { signal: second.signal });
    const c = shared('carol@strict.test', {});
    first.abort({ timeout: 'Timeout Occurred' });
    await expect(a).rejects.toEqual({ timeout: 'Timeout Occurred' });
    expect(v.aborted()).toBe(0);
    v.calls[0]!.release('valid');
    await expect(b).resolves.toMatchObject({ status: 'valid' });
    await expect(c).resolves.toMatchObject({ status: 'valid' });

    const only = new AbortController();
    const d = shared('dave@strict.test', { signal: only.signal });
    only.abort(new Error('gone'));
    await expect(d).rejects.toThrow('gone');
    expect(v.aborted()).toBe(1);
    // A later call does not join the cancelled verification.
    void shared('dave@strict.test', {});
    expect(v.calls.filter((x) => x.address === 'dave@strict.test')).toHaveLength(2);
  });

  it('passes a failure to every caller', async () => {
    const shared = shareIdenticalChecks((address: string) => Promise.reject(new Error(`no luck for ${address}`)));
    await expect(Promise.all([shared('x@strict.test'), shared('x@strict.test')])).rejects.toThrow('no luck for x@strict.test');
  });
});
