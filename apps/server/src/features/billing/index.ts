// The billing feature's public face: the only file that other features and the composition root may import (eslint.config.js
// enforces it). Everything else in this folder is the feature's own business.
export { LOW_CREDIT_CHECK_JOB, createBillingJobs } from './jobs';
export { getSubscribedPlan } from './plan-summary';
export type { TSubscribedPlan } from './plan-summary';
export { ZPriceConfig, applyPriceConfig, readPriceConfig, type TPriceConfig } from './price-config';
export { getPublicPrice } from './pricing-service';
export { registerBillingRoutes } from './routes';
export { createPayments } from './payment-clients';
export { createSubscriptionRenewalTask } from './subscriptions';
