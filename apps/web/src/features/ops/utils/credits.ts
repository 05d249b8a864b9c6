/** The balance after an adjustment (negative means the removal is more than the balance: refused). */
export function resultingBalance(balance: number, direction: 'grant' | 'remove', amount: number): number {
  return direction === 'grant' ? balance + amount : balance - amount;
}
