export { createOwnerAccount } from './create-owner';
export type { TCreatedOwner } from './create-owner';
export { DEMO_PASSWORD, DEMO_USERS } from './instance';
export { registerAuthRoutes } from './routes';
export { inviteMember } from './service';
