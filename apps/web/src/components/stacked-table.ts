/**
 * The class of a table that reads as one card per row on a phone (styles.css): give each body cell the column's
 * name as `data-label` (cells without one, e.g. the name or the actions, span the card) and the header cell that
 * must stay visible (a select-all box) `data-phone-keep`.
 */
export const STACK_ON_PHONE = 'stack-on-phone';
