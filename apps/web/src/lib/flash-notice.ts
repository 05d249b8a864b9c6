/** A one-time message for the next screen, surviving a full page load in this tab (e.g. "account deleted"). */
const KEY = 'verilead-flash-notice';

export function setFlashNotice(message: string): void {
  window.sessionStorage.setItem(KEY, message);
}

/** Reads the notice once and forgets it. */
export function takeFlashNotice(): string | null {
  const message = window.sessionStorage.getItem(KEY);
  if (message !== null) window.sessionStorage.removeItem(KEY);
  return message;
}
