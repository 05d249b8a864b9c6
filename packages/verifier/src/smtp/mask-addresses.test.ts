import { describe, expect, it } from 'vitest';
import { maskAddresses } from './mask-addresses';

describe('maskAddresses', () => {
  it('masks the local part of every address, keeping the domain, the code and the text', () => {
    expect(maskAddresses('550 5.1.1 <alice@corp.com>: Recipient address rejected')).toBe('550 5.1.1 <…@corp.com>: Recipient address rejected');
    expect(maskAddresses('550 5.1.1 bob.smith+x@mail.example.co.uk unknown; also "carol@x.org"')).toBe('550 5.1.1 …@mail.example.co.uk unknown; also "…@x.org"');
  });

  it('leaves a reply without an address as it is', () => {
    expect(maskAddresses('250 2.1.5 Ok')).toBe('250 2.1.5 Ok');
    expect(maskAddresses('421 4.7.0 Try again later [mx.corp.com]')).toBe('421 4.7.0 Try again later [mx.corp.com]');
  });
});
