export { registerAuditRoutes } from './routes';
export { createAuditRetentionTask, permitAuditPurge } from './service';
