/**
 * The sign-in key a sign-up answered (ZSignupData.sign_in_key), kept in this browser so that following the
 * verification link here signs the person in. localStorage, not sessionStorage: the mail client opens the link in a
 * new tab. The server honours the key once, with that account's link, within an hour; after that it is dropped here.
 */
const KEY = 'verilead-signup-sign-in';
const KEEP_MS = 3600_000;

type TStored = { email: string; key: string; saved_at: number };

export function saveSignupSignIn(email: string, key: string): void {
  window.localStorage.setItem(KEY, JSON.stringify({ email, key, saved_at: Date.now() } satisfies TStored));
}

/** The key kept for this browser, or null when there is none (or it is past its hour). */
export function readSignupSignIn(): { email: string; key: string } | null {
  const raw = window.localStorage.getItem(KEY);
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<TStored>;
    if (typeof value.email !== 'string' || typeof value.key !== 'string' || typeof value.saved_at !== 'number') return null;
    if (Date.now() - value.saved_at > KEEP_MS) {
      clearSignupSignIn();
      return null;
    }
    return { email: value.email, key: value.key };
  } catch {
    return null;
  }
}

export function clearSignupSignIn(): void {
  window.localStorage.removeItem(KEY);
}
