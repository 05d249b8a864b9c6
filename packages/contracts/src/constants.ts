/** Business constants from the product spec, section 9. */
export const APP_VERSION = '31.3.1';
export const PAGE_SIZES = [25, 50, 100, 200, 500] as const;
export const BULK_FILE_SIZE_LIMIT_BYTES = 20_000_000;
export const TOAST_DISMISS_MS = 5_000;
export const PAYMENT_REDIRECT_MS = 5_000;
export const COMMA_LIST_LIMIT = 10;
export const CREDIT_USAGE_THRESHOLD = 0.015;
