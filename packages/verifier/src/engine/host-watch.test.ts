import { describe, expect, it } from 'vitest';
import { createManualClock } from '../test-support/manual-clock';
import { HostWatch } from './host-watch';

/** The replies every operator sees in the mail-host view: the host's words, never a customer's address. */
describe('HostWatch recent replies', () => {
  it('records a final reply with its addresses masked, the domain, code and text kept', () => {
    const clock = createManualClock();
    const watch = new HostWatch(clock.clock, clock.sleep, null);
    const seen: string[] = [];
    const tap = watch.tap('10.0.0.1:25', (_d, line) => seen.push(line));
    tap('S', '550 5.1.1 <alice@corp.com>: Recipient address rejected: User unknown in virtual mailbox table');
    tap('C', 'RCPT TO:<bob@corp.com>');
    tap('S', '250 2.1.5 Ok');
    expect(watch.recentReplies('10.0.0.1:25').map((r) => r.line)).toEqual([
      '550 5.1.1 <…@corp.com>: Recipient address rejected: User unknown in virtual mailbox table',
      '250 2.1.5 Ok',
    ]);
    // the session's own transcript (the caller's) is untouched
    expect(seen[0]).toContain('<alice@corp.com>');
  });

  it('masks before cutting a long line, so a cut address is not left half-shown', () => {
    const clock = createManualClock();
    const watch = new HostWatch(clock.clock, clock.sleep, null);
    const line = `550 5.1.1 ${'x'.repeat(180)} <alice.longname@corp.com> rejected`;
    watch.tap('k', undefined)('S', line);
    const [kept] = watch.recentReplies('k');
    expect(kept!.line).not.toContain('alice');
  });
});
