export { registerPublicRoutes } from './routes';
