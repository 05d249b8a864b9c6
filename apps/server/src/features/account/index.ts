export { registerAccountRoutes } from './routes';
export { getProfile, requirePassword } from './service';
