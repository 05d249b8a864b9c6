/**
 * The operator console (issue 31 point 1; docs/ops-console.md): operators (not organisation members) with their own
 * sessions and guard, their routes under /api/v1/ops, and the record of what they do (operator-side log and the
 * organisation's audit log).
 */
import type { FastifyInstance } from 'fastify';
import type { TDeps } from '../../platform/deps';
import { createOperatorGuard } from './guard';
import { registerOpsOrgRoutes } from './orgs-routes';
import { registerOperatorRoutes } from './routes';
import { registerSupportAccessRoutes } from './support-access-routes';

export { createOperatorGuard, getOperator, type TOperatorCaller, type TOperatorGuard } from './guard';
export { OPS_COMMAND_ACTOR, recordOperatorAction, type TOperatorAction, type TOperatorActor } from './record-action';
export { setOperatorStatus } from './operator-status';
export { createOperatorLink } from './operator-auth';
export { createOperatorLogRetentionTask } from './operator-log-retention';
export { OPS_SECURITY, OPS_TAGS } from './routes';

/** Every operator console route of this feature (the app registers it under /api/v1). */
export function registerOpsConsoleRoutes(app: FastifyInstance, deps: TDeps) {
  const guard = createOperatorGuard(deps.database);
  registerOperatorRoutes(app, deps, guard);
  registerOpsOrgRoutes(app, deps, guard);
  registerSupportAccessRoutes(app, deps);
}
