/**
 * The auth feature's public face: the only file of it that the app shell or another feature may import (lint holds
 * this). Its screens are handed out as loaders, so that each stays a chunk of its own that the route table loads lazily.
 */
export const authScreens = {
  emailVerification: () => import('./routes/email-verification-screen'),
  expiredPassword: () => import('./routes/expired-password-screen'),
  forgotPassword: () => import('./routes/forgot-password-screen'),
  login: () => import('./routes/login-screen'),
  resetPassword: () => import('./routes/reset-password-screen'),
  setupPassword: () => import('./routes/setup-password-screen'),
  signup: () => import('./routes/signup-screen'),
};
