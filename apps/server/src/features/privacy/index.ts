export { createRetentionMaintenance } from './retention';
export { registerPrivacyRoutes } from './routes';
export { organisationExportSource } from './service';
