// The pending "go to /pricing" after a 402 (spec section 8). Its own module so the app shell can cancel it on
// logout without loading the API client on pages that have not called the API yet (issue 12).

let pending: ReturnType<typeof setTimeout> | null = null;

export function isPricingRedirectPending(): boolean {
  return pending !== null;
}

/** Runs `go` after `delayMs` unless cancelled first. */
export function schedulePricingRedirect(go: () => void, delayMs: number): void {
  pending = setTimeout(() => {
    pending = null;
    go();
  }, delayMs);
}

/** Clears a pending redirect to /pricing (used by tests and on logout). */
export function cancelPendingPricingRedirect(): void {
  if (pending) clearTimeout(pending);
  pending = null;
}
