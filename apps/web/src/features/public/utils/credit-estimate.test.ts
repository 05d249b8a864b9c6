import { describe, expect, it } from 'vitest';
import { estimateCreditPrice, formatCurrency } from './credit-estimate';

describe('estimateCreditPrice', () => {
  it('takes the slab that covers the amount', () => {
    expect(estimateCreditPrice(10_000, 'USD')).toEqual({ perCredit: 0.007, subtotal: 70, tax: 0, total: 70 });
    expect(estimateCreditPrice(10_001, 'USD').perCredit).toBe(0.0045);
  });
  it('adds 18% for INR, rounded down to 2 decimals', () => {
    const r = estimateCreditPrice(1_001, 'INR');
    expect(r.subtotal).toBe(580.58);
    expect(r.tax).toBe(104.5);
    expect(r.total).toBe(685.08);
    expect(formatCurrency(685.08, 'INR')).toBe('₹685.08');
  });
});
