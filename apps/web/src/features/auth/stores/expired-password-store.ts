/** Hands the password_change token from the login screen to /expired_password (kept for a reload in this tab). */
const KEY = 'verilead-expired-password';

export type TExpiredPasswordTicket = { token: string; email: string };

export function saveExpiredPasswordTicket(ticket: TExpiredPasswordTicket): void {
  window.sessionStorage.setItem(KEY, JSON.stringify(ticket));
}

export function readExpiredPasswordTicket(): TExpiredPasswordTicket | null {
  const raw = window.sessionStorage.getItem(KEY);
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<TExpiredPasswordTicket>;
    return typeof value.token === 'string' && typeof value.email === 'string' ? { token: value.token, email: value.email } : null;
  } catch {
    return null;
  }
}

export function clearExpiredPasswordTicket(): void {
  window.sessionStorage.removeItem(KEY);
}
