import { describe, expect, it } from 'vitest';
import { checkDisposable, checkFreeProvider, checkRoleAccount } from './lists';

describe('checkDisposable', () => {
  it('flags domains of the disposable-email-domains list, by address or domain', () => {
    expect(checkDisposable('mailinator.com')).toBe(true);
    expect(checkDisposable('someone@Mailinator.com')).toBe(true);
    expect(checkDisposable('guerrillamail.com')).toBe(true);
  });
  it('flags subdomains of wildcard entries', () => {
    expect(checkDisposable('x@abc.33mail.com')).toBe(true);
  });
  it('does not flag real providers or companies', () => {
    for (const domain of ['gmail.com', 'outlook.com', 'yahoo.com', 'example.com', 'strict.test']) expect(checkDisposable(domain), domain).toBe(false);
  });
});

describe('checkFreeProvider', () => {
  it('flags free mailbox providers', () => {
    for (const domain of ['gmail.com', 'yahoo.com', 'outlook.com', 'hotmail.com', 'aol.com']) expect(checkFreeProvider(domain), domain).toBe(true);
    expect(checkFreeProvider('jane@GMAIL.com')).toBe(true);
  });
  it('excludes disposable domains that the free list mixes in', () => {
    expect(checkDisposable('mailinator.com')).toBe(true);
    expect(checkFreeProvider('mailinator.com')).toBe(false);
  });
  it('does not flag misspellings of the big providers that the free list mixes in (gmial.com is no provider)', () => {
    for (const domain of ['gmial.com', 'gamil.com', 'gmai.com', 'hotmial.com', 'yahooo.com', 'yaho.com', 'outloook.com', 'hotmaill.com']) expect(checkFreeProvider(domain), domain).toBe(false);
  });
  it('keeps real providers whose names are close to others (country domains, mail.com, fastmail.fm)', () => {
    for (const domain of ['mail.com', 'email.com', 'hotmail.de', 'hotmail.it', 'yahoo.co.jp', 'fastmail.fm', 'protonmail.ch', 'ymail.com', 'foxmail.com', 'gmx.de']) {
      expect(checkFreeProvider(domain), domain).toBe(true);
    }
  });
  it('does not flag company domains', () => {
    expect(checkFreeProvider('strict.test')).toBe(false);
    expect(checkFreeProvider('microsoft.com')).toBe(false);
  });
});

describe('checkRoleAccount', () => {
  it('flags role local parts, ignoring case and +tags', () => {
    for (const local of ['info', 'Sales', 'postmaster@x.com', 'support+eu@x.com', 'no-reply', 'webmaster']) expect(checkRoleAccount(local), local).toBe(true);
  });
  it('does not flag personal local parts', () => {
    for (const local of ['john.smith', 'alice@x.com', 'mikebrown1987']) expect(checkRoleAccount(local), local).toBe(false);
  });
});
