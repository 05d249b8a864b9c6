/**
 * The billing feature's public face: the only file of it that the app shell or another feature may import (lint holds
 * this). Its screens are handed out as loaders, so that each stays a chunk of its own that the route table loads lazily.
 */
export const billingScreens = {
  billing: () => import('./routes/billing-screen'),
  coupons: () => import('./routes/coupons-screen'),
  credits: () => import('./routes/credits-screen'),
  plan: () => import('./routes/plan-screen'),
  pricing: () => import('./routes/pricing-screen'),
  thankYou: () => import('./routes/thank-you-screen'),
};
