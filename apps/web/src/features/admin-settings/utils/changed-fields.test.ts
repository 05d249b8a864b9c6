import { describe, expect, it } from 'vitest';
import { pickChangedFields } from './changed-fields';

describe('pickChangedFields', () => {
  it('keeps only changed flat fields', () => {
    expect(pickChangedFields({ a: true, b: 'x', c: 1 }, { a: false, b: 'x', c: 1 })).toEqual({ a: false });
    expect(pickChangedFields({ a: true }, { a: true })).toEqual({});
  });

  it('compares nested objects by value and sends a changed one whole', () => {
    const saved = { person: { phones: 'all', emails: 'all' }, company: { phones: 'all', emails: 'all' } };
    const next = { person: { phones: 'all', emails: 'all' }, company: { phones: 'no_phones', emails: 'all' } };
    expect(pickChangedFields(saved, next)).toEqual({ company: { phones: 'no_phones', emails: 'all' } });
    expect(pickChangedFields(saved, structuredClone(saved))).toEqual({});
  });
});
