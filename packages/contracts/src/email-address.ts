// The e-mail grammar without zod, so the sign-in pages can check an address without the full schema library.

/**
 * The one e-mail address grammar of the product, shared by every form, route and the mailer: an RFC 5322
 * dot-atom local part (ASCII letters, digits and ! # $ % & ' * + / = ? ^ _ ` { | } ~ -, dots between) and a
 * domain of letter/digit/hyphen labels (internationalised letters allowed) ending in a top-level domain.
 * Quotes, spaces, commas, angle brackets, control characters and NUL are refused.
 */
export const EMAIL_ADDRESS_PATTERN =
  /^(?=.{3,254}$)(?=[^@]{1,64}@)[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.)+(?:\p{L}{2,63}|xn--[a-z0-9-]{1,59})$/u;
export const EMAIL_MESSAGE = 'Please enter a valid email address';

/** True when `value` is an address of the product's one grammar. */
export function isEmailAddress(value: string): boolean {
  return EMAIL_ADDRESS_PATTERN.test(value);
}
