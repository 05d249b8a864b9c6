// The one Drizzle schema: every feature's and platform module's tables, collected for drizzle-kit.
export * from './platform/tenancy/tables';
export * from './platform/auth/tables';
export * from './platform/credits/tables';
export * from './platform/jobs/tables';
export * from './platform/mailer/tables';
export * from './features/activities/tables';
export * from './features/account/tables';
export * from './features/announcements/tables';
export * from './features/events/tables';
export * from './features/settings/tables';
export * from './features/email-verifier/tables';
export * from './features/downloads/tables';
export * from './features/team/tables';
export * from './features/developer/tables';
export * from './features/webhooks/tables';
export * from './features/email-finder/tables';
export * from './features/billing/tables';
