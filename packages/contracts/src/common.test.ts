import { describe, expect, it } from 'vitest';
import { ZDateInput, ZDateTimeInput, ZEmail, ZEmailAddress } from './common';

describe('the one e-mail address grammar', () => {
  const accepted = ['bob&co@x.test', "o'neil@example.com", 'a+tag@sub.example.co.uk', 'x/y=z?{q}|~^`#$%!*@x.test', 'first.last@münchen.de', 'user@xn--mnchen-3ya.de'];
  const refused = ['plainaddress', 'a@b', 'a b@x.test', '"quoted"@x.test', 'a,b@x.test', 'a<b>@x.test', '.a@x.test', 'a.@x.test', 'a..b@x.test', 'a\u0000b@x.test',
    'x\ud800@x.test', 'a@-x.test', 'a@x-.test', 'a@x..test', 'a@x.t', `${'a'.repeat(65)}@x.test`, `a@${'b'.repeat(250)}.test`, 'a@x.test,b@y.test'];

  it('is the same for the routes (ZEmail) and the mailer (ZEmailAddress)', () => {
    for (const address of accepted) {
      expect(ZEmail.safeParse(address).success, address).toBe(true);
      expect(ZEmailAddress.safeParse(address).success, address).toBe(true);
    }
    for (const address of refused) {
      expect(ZEmail.safeParse(address).success, JSON.stringify(address)).toBe(false);
      expect(ZEmailAddress.safeParse(address).success, JSON.stringify(address)).toBe(false);
    }
    expect(ZEmail.parse('  Bob&Co@X.test ')).toBe('bob&co@x.test');
    // Whatever a route accepts, the mailer accepts.
    for (const input of [...accepted, ...refused, ' a@x.test\n', 'A@B.TEST']) {
      const routed = ZEmail.safeParse(input);
      if (routed.success) expect(ZEmailAddress.safeParse(routed.data).success, JSON.stringify(input)).toBe(true);
    }
    expect(ZEmail.safeParse('nope').error?.issues[0]?.message).toBe('Please enter a valid email address');
  });
});

describe('date inputs', () => {
  it('refuse years no database holds, with a readable message', () => {
    for (const bad of ['0000-02-29', '0000-01-01T00:00:00Z', '0001-01-01T00:00:00+14:00', '9999-12-31T23:59:59-14:00', '2024-02-30', 'yesterday']) {
      const r = ZDateInput.safeParse(bad);
      expect(r.success, bad).toBe(false);
      expect(r.error?.issues[0]?.message, bad).toMatch(/date/i);
    }
    expect(ZDateInput.safeParse('2024-02-29').success).toBe(true);
    expect(ZDateInput.safeParse('2024-02-29T10:00:00+02:00').success).toBe(true);
    expect(ZDateTimeInput.safeParse('0000-01-01T00:00:00Z').success).toBe(false);
    expect(ZDateTimeInput.safeParse('2024-01-01T00:00:00Z').success).toBe(true);
  });
});
