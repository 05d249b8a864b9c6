// Header names and the app-update codes without zod: the API client every page loads reads them.

/** Response header carrying the current announcement timestamp (0 when none). */
export const ANNOUNCEMENT_TS_HEADER = 'x-co-ann-ts';
/** Request header carrying the app version. */
export const APP_VERSION_HEADER = 'x-app-version';

/** How the web app updates itself when the server answers 418 (additional_info.update_code). */
export const APP_UPDATE_CODES = ['hard_reload', 'clear_storage_reload', 'reload'] as const;

export function isAppUpdateCode(value: unknown): value is (typeof APP_UPDATE_CODES)[number] {
  return (APP_UPDATE_CODES as readonly unknown[]).includes(value);
}
