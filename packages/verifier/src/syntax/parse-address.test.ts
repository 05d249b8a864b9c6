import { describe, expect, it } from 'vitest';
import { parseAddress } from './parse-address';

function expectError(input: string, fragment: string): void {
  const result = parseAddress(input);
  expect(result.ok, input).toBe(false);
  if (!result.ok) expect(result.error).toContain(fragment);
}

describe('parseAddress', () => {
  it('accepts ordinary dot-atom addresses and lower-cases the domain only', () => {
    const result = parseAddress('  John.Smith+news@Example.COM ');
    expect(result).toMatchObject({ ok: true, local: 'John.Smith+news', domain: 'example.com', address: 'John.Smith+news@example.com', quoted: false, smtputf8: false });
  });

  it('accepts every RFC 5322 atext special character', () => {
    expect(parseAddress("a!#$%&'*+-/=?^_`{|}~z@example.com").ok).toBe(true);
  });

  it('accepts quoted local parts with spaces, @ and escaped quotes', () => {
    expect(parseAddress('"john smith"@example.com')).toMatchObject({ ok: true, quoted: true, local: '"john smith"' });
    expect(parseAddress('"a@b"@example.com')).toMatchObject({ ok: true, local: '"a@b"', domain: 'example.com' });
    expect(parseAddress('"say \\"hi\\""@example.com').ok).toBe(true);
    expect(parseAddress('"john..smith"@example.com').ok).toBe(true);
  });

  it('rejects broken quoted local parts', () => {
    expectError('"abc\\"@example.com', 'backslash');
    expectError('"a"b"@example.com', 'double quote');
  });

  it('accepts RFC 6531 UTF-8 local parts and flags them for SMTPUTF8', () => {
    expect(parseAddress('josé@example.com')).toMatchObject({ ok: true, local: 'josé', smtputf8: true });
    expect(parseAddress('用户@example.com')).toMatchObject({ ok: true, smtputf8: true });
  });

  it('converts IDN domains to punycode through UTS-46', () => {
    expect(parseAddress('info@Bücher.de')).toMatchObject({ ok: true, domain: 'xn--bcher-kva.de', domainUnicode: 'bücher.de', address: 'info@xn--bcher-kva.de' });
    expect(parseAddress('user@ＥＸＡＭＰＬＥ.com')).toMatchObject({ ok: true, domain: 'example.com' });
    expect(parseAddress('user@xn--bcher-kva.de')).toMatchObject({ ok: true, domainUnicode: 'bücher.de' });
  });

  it('enforces the 64-octet local part limit, counted in UTF-8 octets', () => {
    expect(parseAddress(`${'a'.repeat(64)}@example.com`).ok).toBe(true);
    expectError(`${'a'.repeat(65)}@example.com`, '64 octets');
    expectError(`${'é'.repeat(33)}@example.com`, '64 octets'); // 66 octets, 33 characters
  });

  it('enforces the 63-octet label, 255-octet domain and 254-octet address limits', () => {
    expect(parseAddress(`a@${'b'.repeat(63)}.com`).ok).toBe(true);
    expectError(`a@${'b'.repeat(64)}.com`, 'longer than 63');
    const label = 'c'.repeat(60);
    expectError(`a@${[label, label, label, label, label].join('.')}.com`, 'longer than 255');
    const domain = `${'d'.repeat(63)}.${'e'.repeat(63)}.${'f'.repeat(63)}.com`; // 195 characters
    expect(parseAddress(`${'g'.repeat(58)}@${domain}`).ok).toBe(true); // 254 octets
    expectError(`${'g'.repeat(59)}@${domain}`, 'longer than 254');
  });

  it('rejects consecutive, leading and trailing dots in the local part', () => {
    expectError('john..smith@example.com', 'consecutive dots');
    expectError('.john@example.com', 'starts with a dot');
    expectError('john.@example.com', 'ends with a dot');
  });

  it('rejects a missing @, an empty local part or domain, and extra @ signs', () => {
    expectError('plainaddress', 'no @');
    expectError('@example.com', 'local part');
    expectError('john@', 'domain after the @ is empty');
    expectError('a@b@example.com', 'more than one @');
  });

  it('rejects white space and characters only allowed in quotes', () => {
    expectError('jane doe@example.com', '" "');
    expectError('john(smith)@example.com', '"("');
    expectError('john@exa mple.com', 'white space');
  });

  it('rejects IP-literal domains as not verifiable', () => {
    expectError('john@[192.168.0.1]', 'IP address literal');
    expectError('john@[IPv6:2001:db8::1]', 'IP address literal');
    expectError('john@192.168.0.1', 'IP address');
  });

  it('rejects malformed domains', () => {
    expectError('john@localhost', 'top-level domain');
    expectError('john@example..com', 'empty label');
    expectError('john@-example.com', 'hyphen');
    expectError('john@exa_mple.com', 'not allowed');
    expectError('john@example.com.', 'ends with a dot');
  });
});
