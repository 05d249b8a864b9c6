import { describe, expect, it } from 'vitest';
import { ZTimezoneEditRequest, currentTimezoneName, listTimezoneOptions } from './index';

describe('time zones', () => {
  it('lists current names, each found by its current and its legacy name', () => {
    const options = listTimezoneOptions();
    const find = (text: string) => options.filter((o) => o.label.toLowerCase().includes(text.toLowerCase())).map((o) => o.value);
    expect(find('Kolkata')).toEqual(['Asia/Kolkata']);
    expect(find('Calcutta')).toEqual(['Asia/Kolkata']);
    expect(find('Kyiv')).toEqual(['Europe/Kyiv']);
    expect(find('Saigon')).toEqual(['Asia/Ho_Chi_Minh']);
    expect(options.some((o) => o.value === 'Asia/Calcutta')).toBe(false);
    expect(options[0]).toEqual({ value: 'UTC', label: 'UTC' });
    expect(new Set(options.map((o) => o.value)).size).toBe(options.length);
  });

  it('the server takes either name and keeps the current one', () => {
    expect(ZTimezoneEditRequest.parse({ timezone: 'Asia/Calcutta' }).timezone).toBe('Asia/Kolkata');
    expect(ZTimezoneEditRequest.parse({ timezone: 'Asia/Kolkata' }).timezone).toBe('Asia/Kolkata');
    expect(ZTimezoneEditRequest.safeParse({ timezone: 'Mars/Olympus' }).success).toBe(false);
    expect(currentTimezoneName('Europe/Paris')).toBe('Europe/Paris');
  });
});
