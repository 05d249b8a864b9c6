import { describe, expect, it } from 'vitest';
import { formatCurrency } from './credit-estimate';

describe('formatCurrency', () => {
  it('writes rupees and dollars with two decimals', () => {
    expect(formatCurrency(685.08, 'INR')).toBe('₹685.08');
    expect(formatCurrency(123456.5, 'INR')).toBe('₹1,23,456.50');
    expect(formatCurrency(70, 'USD')).toBe('$70.00');
  });
});
