import { describe, expect, it } from 'vitest';
import { checkProbeIdentity, describeUnpublicName } from './probe-identity';

describe('the probe identity (HELO name and sender)', () => {
  it('warns about names no receiver can resolve: localhost-like, local or test suffixes, bare labels, address literals', () => {
    for (const name of ['localhost', 'verilead.localhost', 'box.local', 'mx.verilead.test', 'verilead', '127.0.0.1', '[192.0.2.1]', 'mail.example.com', 'srv.internal']) {
      expect(describeUnpublicName(name), name).not.toBeNull();
    }
    for (const name of ['verify.verilead.io', 'mx1.mail.acme.co.uk']) expect(describeUnpublicName(name), name).toBeNull();
  });

  it('answers one warning per failing part, naming the setting to change', () => {
    expect(checkProbeIdentity({ heloName: 'verify.verilead.io', mailFrom: 'bounce@verilead.io' })).toEqual([]);
    const both = checkProbeIdentity({ heloName: 'verilead.localhost', mailFrom: 'verify@verilead.localhost' });
    expect(both).toHaveLength(2);
    expect(both[0]).toMatch(/HELO name "verilead\.localhost".*VERIFIER_HELO_NAME/);
    expect(both[1]).toMatch(/sender "verify@verilead\.localhost".*VERIFIER_MAIL_FROM/);
    expect(checkProbeIdentity({ heloName: 'verify.verilead.io', mailFrom: 'nobody' })[0]).toMatch(/has no domain/);
  });
});
