// Public surface of @verilead/contracts: zod schemas, enums and constants shared by server and web.
// Each module appends its own `export * from './<module>';` line below.
export * from './messages';
export * from './timezones';
export * from './constants';
export * from './navigation';
export * from './envelopes';
export * from './enums';
export * from './common';
export * from './user';
export * from './email-verifier';
export * from './downloads';
export * from './settings';
export * from './team';
export * from './authorization';
export * from './developer';
export * from './webhooks';
export * from './email-finder';
export * from './csv-delimiter';
export * from './form-guard';
export * from './integrations';
export * from './prospect';
export * from './sso';
export * from './public';
export * from './date-presets';
export * from './analytics';
export * from './activities';
export * from './billing';
