import { describe, expect, it } from 'vitest';
import { classifyBounce, detectBounceReport, parseBounceDate } from './classify';

describe('reading bounce reports of the common ESPs', () => {
  // Header rows as each ESP exports its bounces, with one data row.
  const exports: [string, string[], string[], { esp: string; type: number | null; code: number | null; kind: 'hard' | 'soft' }][] = [
    ['SendGrid suppressions', ['email', 'created', 'reason', 'status'], ['a@x.test', '1732000000', '550 5.1.1 no such user', '5.1.1'], { esp: 'SendGrid', type: null, code: 3, kind: 'hard' }],
    ['Mailchimp campaign bounces', ['Email Address', 'First Name', 'Bounce Type'], ['a@x.test', 'Ann', 'soft'], { esp: 'Mailchimp', type: 2, code: null, kind: 'soft' }],
    ['Brevo hard bounces', ['Email', 'Event', 'Date', 'st_text'], ['a@x.test', 'hard_bounce', '2026-11-20', 'User unknown'], { esp: 'Brevo', type: 1, code: null, kind: 'hard' }],
    ['Mailgun failed events', ['recipient', 'event', 'severity', 'delivery-status.code', 'delivery-status.message'], ['a@x.test', 'failed', 'temporary', '421', 'try later'], { esp: 'Mailgun', type: 2, code: 3, kind: 'soft' }],
    ['Postmark bounces', ['Email', 'Type', 'TypeCode', 'BouncedAt', 'Description', 'Details'], ['a@x.test', 'HardBounce', '1', '2026-11-20T10:00:00Z', 'The server was unable to deliver', 'smtp;550 5.1.1'], { esp: 'Postmark', type: 1, code: 5, kind: 'hard' }],
    ['Amazon SES notifications', ['emailAddress', 'bounceType', 'bounceSubType', 'status', 'diagnosticCode', 'timestamp'], ['a@x.test', 'Transient', 'MailboxFull', '4.2.2', 'smtp; 452 4.2.2 full', '2026-11-20T10:00:00Z'], { esp: 'Amazon SES', type: 1, code: 3, kind: 'soft' }],
    ['HubSpot email events', ['Recipient', 'Event type', 'Bounce category', 'Response'], ['a@x.test', 'BOUNCE', 'UNKNOWN_USER', '550 5.1.1 unknown'], { esp: 'HubSpot', type: 2, code: 3, kind: 'hard' }],
  ];
  it.each(exports)('%s: the ESP, the email, type and code columns, and the kind', (_name, header, row, want) => {
    const got = detectBounceReport([header, row]);
    expect(got.esp).toBe(want.esp);
    expect(got.hasHeader).toBe(true);
    expect(got.mapping.email_column).toBe(0);
    expect(got.mapping.type_column).toBe(want.type);
    expect(got.mapping.code_column).toBe(want.code);
    const cell = (i: number | null) => (i === null ? '' : row[i]!);
    expect(classifyBounce({ type: cell(got.mapping.type_column), code: cell(got.mapping.code_column), reason: cell(got.mapping.reason_column) })).toBe(want.kind);
  });

  it('reads the kind from type words, else SMTP codes (5.x.x / 5xx hard, 4.x.x / 4xx soft), else the reason', () => {
    expect(classifyBounce({ type: 'Permanent' })).toBe('hard');
    expect(classifyBounce({ type: 'SoftBounce' })).toBe('soft');
    expect(classifyBounce({ type: 'MAILBOX_FULL' })).toBe('soft');
    expect(classifyBounce({ type: 'bounce', code: '5.7.1' })).toBe('hard');
    expect(classifyBounce({ code: '421' })).toBe('soft');
    expect(classifyBounce({ code: 'smtp;421 try again later' })).toBe('soft');
    expect(classifyBounce({ code: '2026-11-20 10:00:00' })).toBeNull();
    expect(classifyBounce({ reason: 'smtp; 550 5.1.1 user unknown' })).toBe('hard');
    expect(classifyBounce({ reason: 'Mailbox full' })).toBe('soft');
    expect(classifyBounce({ type: 'bounce' })).toBeNull();
    expect(classifyBounce({})).toBeNull();
  });

  it('finds a file without a header: the address column and the column of bounce words', () => {
    const got = detectBounceReport([
      ['x', 'a@x.test', 'hard'],
      ['y', 'b@x.test', 'soft'],
    ]);
    expect(got.hasHeader).toBe(false);
    expect(got.mapping).toMatchObject({ email_column: 1, type_column: 2 });
  });

  it('reads dates: ISO, SQL-like, epoch seconds and milliseconds, a day alone as its end, never after now', () => {
    const now = new Date('2026-11-29T00:00:00Z');
    expect(parseBounceDate('2026-11-20T10:00:00Z', now)!.toISOString()).toBe('2026-11-20T10:00:00.000Z');
    expect(parseBounceDate('2026-11-20 10:00:00', now)!.toISOString()).toBe('2026-11-20T10:00:00.000Z');
    expect(parseBounceDate('1795000000', now)!.toISOString()).toBe(new Date(1795000000 * 1000).toISOString());
    expect(parseBounceDate('1795000000000', now)!.getTime()).toBe(1795000000000);
    expect(parseBounceDate('2026-11-20', now)!.toISOString()).toBe('2026-11-20T23:59:59.000Z');
    expect(parseBounceDate('2027-01-01', now)).toEqual(now);
    expect(parseBounceDate('hard', now)).toBeNull();
    expect(parseBounceDate('', now)).toBeNull();
  });
});
