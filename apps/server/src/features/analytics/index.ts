export { registerAnalyticsRoutes } from './routes';
