export { LOW_CREDIT_CHECK_JOB, createBillingJobs } from './jobs';
export { getSubscribedPlan } from './plan-summary';
export type { TSubscribedPlan } from './plan-summary';
export { ZPriceConfig, applyPriceConfig } from './price-config';
export { getPublicPrice } from './pricing-service';
export { registerBillingRoutes } from './routes';
export { getStripeGateway } from './stripe-gateway';
export { createSubscriptionRenewalTask } from './subscriptions';
