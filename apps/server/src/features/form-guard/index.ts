export { registerFormGuardPublicRoutes, registerFormGuardRoutes } from './routes';
