export type TCurrency = 'USD' | 'INR';

/** An amount of money in the visitor's currency (INR with Indian digit grouping). */
export function formatCurrency(value: number, currency: TCurrency): string {
  return new Intl.NumberFormat(currency === 'INR' ? 'en-IN' : 'en-US', { style: 'currency', currency, minimumFractionDigits: 2 }).format(value);
}
