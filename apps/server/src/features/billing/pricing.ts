import { ANNUAL_DISCOUNT_PERCENT, INR_TAX_PERCENT, type TCurrency, type TPriceKind } from '@verilead/contracts';

/** A price slab as the pricing rules read it (prices in millionths of the currency unit per credit). */
export type TSlabRow = { currency: TCurrency; minCredits: number; maxCredits: number | null; unitPriceMicros: number; kind: TPriceKind; bonusPercent: number };

/** Amounts in minor units (cents, paise). */
export type TQuoteMinor = {
  currency: TCurrency;
  credits: number;
  bonusCredits: number;
  kind: TPriceKind;
  unitPriceMicros: number;
  subtotalMinor: number;
  discountMinor: number;
  taxMinor: number;
  totalMinor: number;
};

/** The slab that prices `credits` (the one with the largest minimum not above it), or null when none does. */
export function findSlab(slabs: TSlabRow[], credits: number): TSlabRow | null {
  let best: TSlabRow | null = null;
  for (const s of slabs) {
    if (credits < s.minCredits || (s.maxCredits !== null && credits > s.maxCredits)) continue;
    if (!best || s.minCredits > best.minCredits) best = s;
  }
  return best;
}

/** Tax in minor units: 18% for INR, rounded down (to the paisa, i.e. 2 decimals); none for USD. */
export function computeTaxMinor(currency: TCurrency, amountMinor: number): number {
  return currency === 'INR' ? Math.floor((amountMinor * INR_TAX_PERCENT) / 100) : 0;
}

/** A plan's payment row fields: its credits and price, tax added (PayPal's first payment and its renewals). */
export function planPaymentFields(plan: { id: string; credits: number; currency: string; priceMinor: number }) {
  const taxMinor = computeTaxMinor(plan.currency as TCurrency, plan.priceMinor);
  return { kind: 'plan' as const, planId: plan.id, credits: plan.credits, currency: plan.currency, subtotalMinor: plan.priceMinor, taxMinor, totalMinor: plan.priceMinor + taxMinor };
}

/** Price of `credits` at `unitPriceMicros` per credit, in minor units (rounded to the nearest). */
export function priceMinor(credits: number, unitPriceMicros: number): number {
  return Math.round((credits * unitPriceMicros) / 10_000);
}

/** The full quote: subtotal from the slab, a coupon's percent off, tax on what is left, bonus credits of a bonus slab. */
export function computeQuote(slab: TSlabRow, credits: number, couponPercent = 0): TQuoteMinor {
  const subtotalMinor = priceMinor(credits, slab.unitPriceMicros);
  const discountMinor = Math.floor((subtotalMinor * Math.min(100, Math.max(0, couponPercent))) / 100);
  const taxMinor = computeTaxMinor(slab.currency, subtotalMinor - discountMinor);
  return {
    currency: slab.currency,
    credits,
    bonusCredits: slab.kind === 'bonus' ? Math.floor((credits * slab.bonusPercent) / 100) : 0,
    kind: slab.kind,
    unitPriceMicros: slab.unitPriceMicros,
    subtotalMinor,
    discountMinor,
    taxMinor,
    totalMinor: subtotalMinor - discountMinor + taxMinor,
  };
}

/** One time against annual (20% cheaper) for the same credits, before tax. */
export function compareAnnual(slab: TSlabRow, credits: number) {
  const oneTime = priceMinor(credits, slab.unitPriceMicros);
  const annual = Math.round((oneTime * (100 - ANNUAL_DISCOUNT_PERCENT)) / 100);
  return { oneTimeMinor: oneTime, annualMinor: annual, perMonthMinor: Math.round(annual / 12) };
}

/** The number people see on an invoice: INV-000042 (null for an unpaid payment, which is no invoice). */
export function invoiceNumber(n: number): string;
export function invoiceNumber(n: number | null): string | null;
export function invoiceNumber(n: number | null): string | null {
  return n === null ? null : `INV-${String(n).padStart(6, '0')}`;
}

export function toMajor(minor: number): number {
  return Math.round(minor) / 100;
}

export function microsToMajor(micros: number): number {
  return micros / 1_000_000;
}
