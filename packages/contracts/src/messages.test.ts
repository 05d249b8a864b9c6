import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ZSignupRequest, ZEmail, humanFieldLabel } from './index';

const RAW = /Too small|Too big|Invalid option|expected|Invalid input|>=|<=/;

function messagesOf(result: { success: boolean; error?: z.ZodError }) {
  return Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));
}

describe('human validation messages', () => {
  it('sign-up answers every field in words a person reads', () => {
    const messages = messagesOf(ZSignupRequest.safeParse({ name: '', email: 'ab', password: 'x', signup_source: 'nope' }));
    expect(Object.keys(messages).sort()).toEqual(['email', 'name', 'password', 'signup_source']);
    for (const message of Object.values(messages)) {
      expect(message).not.toMatch(RAW);
      expect(message).not.toMatch(/^[a-z_]+:/);
    }
    expect(messages.email).toBe('Please enter a valid email address');
    expect(messages.signup_source).toBe('Please choose how you heard about us');
  });

  it('a missing sign-up source says so', () => {
    const messages = messagesOf(ZSignupRequest.safeParse({ name: 'Ada', email: 'a@b.test', password: 'Str0ngPass' }));
    expect(messages.signup_source).toBe('Please choose how you heard about us');
  });

  it('default schema issues read as sentences naming the field, never raw keys', () => {
    const schema = z.object({
      last_name: z.string().min(2),
      company_name: z.string().max(3),
      url: z.url(),
      count: z.number().int().min(1),
      kind: z.enum(['a_b', 'c_d']),
      flag: z.boolean(),
    });
    const messages = messagesOf(schema.safeParse({ last_name: 'x', company_name: 'long name', url: 'nope', count: 0, kind: 'x' }));
    expect(messages).toEqual({
      last_name: 'Last name must be at least 2 characters',
      company_name: 'Company name must be at most 3 characters',
      url: 'URL must be a valid link',
      count: 'Count must be at least 1',
      kind: 'Please choose a valid kind',
      flag: 'Flag is required',
    });
  });

  it('an email too short gives the email message', () => {
    const result = ZEmail.safeParse('a');
    expect(result.error?.issues[0]?.message).toBe('Please enter a valid email address');
  });

  it('labels keys for people', () => {
    expect(humanFieldLabel(['org_website_url'])).toBe('Organisation website URL');
    expect(humanFieldLabel(['items', 0, 'email'])).toBe('Email');
    expect(humanFieldLabel([])).toBe('This value');
  });
});
