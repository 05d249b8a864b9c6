/**
 * The public feature's public face: the only file of it that the app shell or another feature may import (lint holds
 * this). Its screens are handed out as loaders, so that each stays a chunk of its own that the route table loads lazily.
 */
export const publicScreens = {
  creditsCalculator: () => import('./routes/credits-calculator-screen'),
  extensionUninstall: () => import('./routes/extension-uninstall-screen'),
  marketingStats: () => import('./routes/marketing-stats-screen'),
  publicInstantSearch: () => import('./routes/public-instant-search-screen'),
  terms: () => import('./routes/terms-screen'),
  thankYou: () => import('./routes/thank-you-screen'),
};
