/**
 * The sso feature's public face: the only file of it that the app shell or another feature may import (lint holds
 * this). Its screens are handed out as loaders, so that each stays a chunk of its own that the route table loads lazily.
 */
export const ssoScreens = {
  authentication: () => import('./routes/authentication-screen'),
  enterpriseRegister: () => import('./routes/enterprise-register-screen'),
  help: () => import('./routes/help-screen'),
  onetoolLogin: () => import('./routes/onetool-login-screen'),
  ssoSignin: () => import('./routes/sso-signin-screen'),
};
