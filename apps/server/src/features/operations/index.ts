export { createAppMetrics } from './metrics';
export { registerOperationsRoutes } from './routes';
