import * as z from 'zod/mini';
import { EMAIL_ADDRESS_PATTERN, EMAIL_MESSAGE } from './email-address';

// The log-in request in zod's "mini" form: the same runtime schema the server validates with, small enough for the
// sign-in page to load before its form is usable (issue 12). Classic schemas elsewhere accept it as a field.

/** An e-mail as entered in the log-in form: trimmed, the product's one grammar, lower-cased (as ZEmail). */
export const ZLoginEmail = z.string().check(z.trim(), z.regex(EMAIL_ADDRESS_PATTERN, { message: EMAIL_MESSAGE }), z.toLowerCase());

export const ZLoginRequest = z.object({ email: ZLoginEmail, password: z.string().check(z.minLength(1), z.maxLength(200)) });
export type TLoginRequest = z.input<typeof ZLoginRequest>;
/** How many failed sign-ins of one e-mail (an account or not) within SIGN_IN_WINDOW_MINUTES make it answer 429. */
export const SIGN_IN_MAX_FAILURES = 10;
/** The window the failures are counted in: the e-mail signs in again once its oldest counted failure is this old. */
export const SIGN_IN_WINDOW_MINUTES = 15;
export const SIGN_IN_LOCKED_MESSAGE = `Too many failed sign-ins for this e-mail: please try again in ${SIGN_IN_WINDOW_MINUTES} minutes.`;
