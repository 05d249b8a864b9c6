// The auth feature's public face: the only file that other features and the composition root may import (eslint.config.js
// enforces it). Everything else in this folder is the feature's own business.
export { createOwnerAccount } from './create-owner';
export type { TCreatedOwner } from './create-owner';
export { DEMO_PASSWORD, DEMO_USERS } from './instance';
export { registerAuthRoutes } from './routes';
export { inviteMember } from './service';
