/** The credits a new organisation starts with, whether it signed up with a password or through single sign-on. */
export const SIGNUP_BONUS_CREDITS = 100;
