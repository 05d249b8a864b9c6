// The operator console's infrastructure screens (issue 31 point 1, part B): job queues, the verifier's mail hosts and
// payment events. The public face: the only file other features and the composition root may import.
export { registerOpsInfraRoutes } from './routes';
