import { describe, expect, it } from 'vitest';
import { normaliseForDedupe } from './normalise';

describe('normaliseForDedupe', () => {
  it('collapses Gmail dots, +tags, case and googlemail.com', () => {
    const key = 'johnsmith@gmail.com';
    for (const variant of ['John.Smith@gmail.com', 'johnsmith+news@gmail.com', 'j.o.h.n.smith@GoogleMail.com', ' JOHNSMITH@GMAIL.COM ']) {
      expect(normaliseForDedupe(variant), variant).toBe(key);
    }
  });
  it('strips +tags at providers with sub-addressing but keeps dots there', () => {
    expect(normaliseForDedupe('Jane.Doe+promo@outlook.com')).toBe('jane.doe@outlook.com');
  });
  it('keeps dots and +tags elsewhere (other servers may treat them literally)', () => {
    expect(normaliseForDedupe('John.Smith+x@Example.com')).toBe('john.smith+x@example.com');
  });
  it('converts IDN domains to punycode', () => {
    expect(normaliseForDedupe('info@Bücher.de')).toBe('info@xn--bcher-kva.de');
  });
});
