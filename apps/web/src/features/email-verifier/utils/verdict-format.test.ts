import { describe, expect, it } from 'vitest';
import { describeReason, formatTimeTaken, getSafeToSendLook, getScoreColor, listResultFlags, STATUS_LOOKS, toScorePercent } from './verdict-format';

describe('verdict formatting', () => {
  it('turns a 0–1 score into a clamped percent', () => {
    expect(toScorePercent(0.954)).toBe(95);
    expect(toScorePercent(1.4)).toBe(100);
    expect(toScorePercent(-1)).toBe(0);
    expect(toScorePercent(null)).toBe(0);
  });

  it('colours a score by the spec score labels', () => {
    expect(getScoreColor(95)).toBe('teal');
    expect(getScoreColor(80)).toBe('lime');
    expect(getScoreColor(45)).toBe('orange');
    expect(getScoreColor(10)).toBe('red');
    expect(getScoreColor(0)).toBe('red');
  });

  it('formats time taken', () => {
    expect(formatTimeTaken(850)).toBe('850 ms');
    expect(formatTimeTaken(2_440)).toBe('2.4 s');
    expect(formatTimeTaken(65_000)).toBe('1 min 5 s');
    expect(formatTimeTaken(120_000)).toBe('2 min');
    expect(formatTimeTaken(Number.NaN)).toBe('-');
  });

  it('describes a reason with the server text first, then the code wording', () => {
    expect(describeReason({ code: 'mailbox_not_found', text: 'The server said 550 5.1.1.' })).toBe('The server said 550 5.1.1.');
    expect(describeReason({ code: 'mailbox_not_found', text: '' })).toBe('The mailbox does not exist.');
    expect(describeReason('accept_all')).toBe('The mail server accepts every address of this domain.');
    expect(describeReason('brand_new_code')).toBe('Brand new code');
    expect(describeReason(null)).toBe('-');
  });

  it('labels safe-to-send values', () => {
    expect(getSafeToSendLook('yes')).toEqual({ label: 'Safe to send', color: 'teal' });
    expect(getSafeToSendLook(false).label).toBe('Do not send');
    expect(getSafeToSendLook('risky').color).toBe('orange');
  });

  it('has a look for every status and lists the four flags', () => {
    expect(Object.keys(STATUS_LOOKS).sort()).toEqual(['catch_all', 'invalid', 'unknown', 'valid']);
    const flags = listResultFlags({ disposable: true, free_account: false, role_account: true, gibberish: false });
    expect(flags.filter((flag) => flag.on).map((flag) => flag.key)).toEqual(['disposable', 'role_account']);
  });
});
