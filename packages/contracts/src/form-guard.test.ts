import { describe, expect, it } from 'vitest';
import { buildDefaultFormGuardSettings, DEFAULT_FORM_GUARD_MESSAGES, formGuardMessageFor } from './form-guard';

describe('formGuardMessageFor', () => {
  it('gives each e-mail refusal its own message, "invalid" the e-mail message, phones and names theirs', () => {
    const { messages } = buildDefaultFormGuardSettings();
    expect(formGuardMessageFor(messages, 'email', 'invalid')).toBe('Please enter a valid email address');
    expect(formGuardMessageFor(messages, 'email', 'catch_all')).toBe('We cannot confirm this mailbox exists (the domain accepts any address); please use another email address');
    expect(formGuardMessageFor(messages, 'email', 'disposable')).toBe('Please use a permanent email address, not a disposable one');
    expect(formGuardMessageFor(messages, 'phone', 'invalid')).toBe('Please enter a valid phone number');
  });

  it('a guard saved before refusals had messages gets the defaults, never the "invalid" text for a real address', () => {
    const old = { ...DEFAULT_FORM_GUARD_MESSAGES, email: 'Please enter a valid email address' };
    expect(formGuardMessageFor(old, 'email', 'unknown')).toBe('We could not confirm this email address; please use another one');
    expect(formGuardMessageFor(old, 'email', 'free')).toBe('Please use your work email address');
  });
});
