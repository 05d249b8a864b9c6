import { domainToASCII, domainToUnicode } from 'node:url';
import { describe, expect, it } from 'vitest';
import { toAsciiDomain, toUnicodeDomain } from './idn';

const DOMAINS = [
  'example.com', 'EXAMPLE.COM', 'Mail.Example.Co.UK', 'a-b.test', '-lead.test', 'trail-.test', 'a..b.test', '.lead.test', 'end.test.',
  'foo.123', 'foo.0x1f', 'foo.0X', '1.2.3.4', '0x7f.1', '127.1', 'a.b1', 'a.1b', 'xn--bcher-kva.de', 'XN--BCHER-KVA.DE', 'xn--invalid-.test',
  'xn--a.test', 'bücher.de', 'BÜCHER.DE', 'exa mple.com', 'exa_mple.com', 'ex%41mple.com', 'münchen.xn--p1ai', 'ｅｘａｍｐｌｅ.com', 'a.b.c.d.e.f',
  'x'.repeat(64) + '.test', '', '.', '..', 'localhost', 'a.-', 'gmail.com', 'googlemail.com',
];

describe('toAsciiDomain', () => {
  it('answers what node:url domainToASCII answers, for plain, mixed-case, numeric, punycode and Unicode domains', () => {
    for (const domain of DOMAINS) expect(toAsciiDomain(domain), domain).toBe(domainToASCII(domain));
  });
});

describe('toUnicodeDomain', () => {
  it('answers domainToUnicode (or the input when that fails) for ASCII domains', () => {
    for (const domain of DOMAINS) {
      const ascii = domainToASCII(domain);
      if (!ascii) continue;
      expect(toUnicodeDomain(ascii), ascii).toBe(domainToUnicode(ascii) || ascii);
    }
  });
});
