import type { TCurrency } from '@verilead/contracts';

/** An amount with its currency, two decimals (USD 12.50, INR 708.00). */
export function formatAmount(currency: TCurrency, amount: number): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(amount);
}

/** A price per credit with its currency symbol and up to four decimals ($0.008, ₹0.65), as on the plan cards. */
export function formatUnitPrice(currency: TCurrency, amount: number): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 4 }).format(amount);
}
