import type { TPlan } from '@verilead/contracts';

/**
 * What an annual plan saves against paying the same plan (same name and currency) monthly for twelve months,
 * computed from the prices on sale — never a fixed claim. Null when no annual plan has a monthly counterpart.
 */
export function describeAnnualSaving(plans: TPlan[]): string | null {
  const savings: number[] = [];
  for (const annual of plans.filter((p) => p.interval === 'annual')) {
    const monthly = plans.find((p) => p.interval === 'monthly' && p.name === annual.name && p.currency === annual.currency);
    if (!monthly || monthly.price <= 0) continue;
    // Per credit, so a plan whose year grants other than 12 months of credits compares fairly.
    const monthlyPerCredit = monthly.price / monthly.credits;
    const annualPerCredit = annual.price / annual.credits;
    savings.push(Math.round((1 - annualPerCredit / monthlyPerCredit) * 100));
  }
  if (savings.length === 0) return null;
  const best = Math.max(...savings);
  const least = Math.min(...savings);
  if (best <= 0 && least >= 0) return 'Annual plans cost the same per credit as paying monthly.';
  if (best <= 0) return 'Annual plans cost more per credit than paying monthly.';
  if (best === least) return `Annual plans are ${best}% cheaper per credit than paying monthly.`;
  return `Annual plans are up to ${best}% cheaper per credit than paying monthly.`;
}
