/**
 * The admin-settings feature's public face: the only file of it that the app shell or another feature may import (lint holds
 * this). Its screens are handed out as loaders, so that each stays a chunk of its own that the route table loads lazily.
 */
export const adminSettingsScreens = {
  adminEmailFinder: () => import('./routes/admin-email-finder-screen'),
  adminEmailVerifier: () => import('./routes/admin-email-verifier-screen'),
  adminProspect: () => import('./routes/admin-prospect-screen'),
};
