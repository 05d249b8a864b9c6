/**
 * The instant credits calculator's price table. Indicative only, and scoped to the public calculator page:
 * the billing feature owns real prices (GET /price, /price/slab) and replaces this table when it lands.
 */
export type TCurrency = 'USD' | 'INR';

/** Price per credit by volume: the first slab whose `upTo` covers the amount applies to all of it. */
export const INDICATIVE_SLABS: Record<TCurrency, ReadonlyArray<{ upTo: number; perCredit: number }>> = {
  USD: [
    { upTo: 10_000, perCredit: 0.007 },
    { upTo: 100_000, perCredit: 0.0045 },
    { upTo: 1_000_000, perCredit: 0.0025 },
    { upTo: Infinity, perCredit: 0.0015 },
  ],
  INR: [
    { upTo: 10_000, perCredit: 0.58 },
    { upTo: 100_000, perCredit: 0.37 },
    { upTo: 1_000_000, perCredit: 0.21 },
    { upTo: Infinity, perCredit: 0.12 },
  ],
};

/** 18% added for INR, rounded down to 2 decimals (spec section 9). */
export const INR_TAX_RATE = 0.18;

const floor2 = (v: number) => Math.floor(Math.round(v * 1e6) / 1e4) / 100;

export function estimateCreditPrice(credits: number, currency: TCurrency): { perCredit: number; subtotal: number; tax: number; total: number } {
  const slabs = INDICATIVE_SLABS[currency];
  const slab = slabs.find((s) => credits <= s.upTo) ?? slabs[slabs.length - 1]!;
  const subtotal = floor2(credits * slab.perCredit);
  const tax = currency === 'INR' ? floor2(subtotal * INR_TAX_RATE) : 0;
  return { perCredit: slab.perCredit, subtotal, tax, total: floor2(subtotal + tax) };
}

export function formatCurrency(value: number, currency: TCurrency): string {
  return new Intl.NumberFormat(currency === 'INR' ? 'en-IN' : 'en-US', { style: 'currency', currency, minimumFractionDigits: 2 }).format(value);
}
