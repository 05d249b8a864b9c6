export { registerMcpRoutes } from './routes';
