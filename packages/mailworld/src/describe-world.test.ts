import { describe, expect, it } from 'vitest';
import { describeMailWorld } from './describe-world';
import { startMailWorld } from './mail-world';

describe('describeMailWorld', () => {
  it('names the resolver, the SMTP port and every scenario example with its verdict', async () => {
    const world = await startMailWorld();
    await world.stop();
    const text = describeMailWorld(world);
    expect(text).toContain(`DNS ${world.dnsServers[0]} (UDP+TCP), SMTP port ${world.smtpPort}`);
    expect(text).toContain('alice@strict.test → valid/valid_mailbox');
    expect(text).toContain('sybil@servfail.test → unknown/dns_error');
    expect(text.split('\n')).toHaveLength(1 + Object.keys(world.examples).length);
  });
});
