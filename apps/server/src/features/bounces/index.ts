/**
 * Bounces fed back (issue 32 point 2): bounce reports uploaded from any ESP, SendGrid's and Mailchimp's bounce
 * webhooks, and the guarantee's credit-backs (claimed, then confirmed by a re-check of the address). The bounce rows themselves live in platform/bounces, which the email
 * verifier reads for its results and catch-all scores.
 */
export { registerBounceRoutes } from './routes';
export { recordBounces, type TBounceEvent, type TRecordTotals } from './record-bounces';
export { createBounceJobs } from './jobs';
export { CONFIRM_CREDIT_BACKS_JOB, confirmCreditBacks, createCreditBackSweep, judgeRecheck } from './confirm-credit-backs';
export { classifyBounce, detectBounceReport } from './classify';
