export { registerActivityRoutes } from './routes';
