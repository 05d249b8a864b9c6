/**
 * The operator console's part of the authorisation table (authorization-table.ts spreads it in): operator sessions
 * only (`operator`: the route's operator guard checks it; every organisation role gets 403, no token 401), except the
 * sign-in routes and the ops command's route, which check their own secret or password.
 */
const PUBLIC = { access: 'public' } as const;
const OPERATOR = { access: 'operator' } as const;

export const OPS_CONSOLE_AUTHORIZATION = {
  'POST /ops/create_operator': PUBLIC, // checks the operator secret itself (npm run ops -- create-operator)
  'POST /ops/session/login': PUBLIC,
  'POST /ops/session/set_password': PUBLIC,
  'POST /ops/session/logout': OPERATOR,
  'GET /ops/me': OPERATOR,
  'POST /ops/operator_status': PUBLIC, // checks the operator secret itself (npm run ops -- disable-operator / enable-operator)
  'GET /ops/operators': OPERATOR,
  'POST /ops/operators/invite': OPERATOR,
  'POST /ops/operators/:id/disable': OPERATOR,
  'POST /ops/operators/:id/enable': OPERATOR,
  'GET /ops/actions': OPERATOR,
  'GET /ops/orgs': OPERATOR,
  'GET /ops/orgs/:id': OPERATOR,
  'GET /ops/orgs/:id/lists': OPERATOR,
  'POST /ops/orgs/:id/credits': OPERATOR,
  'POST /ops/orgs/:id/suspend': OPERATOR,
  'POST /ops/orgs/:id/restore': OPERATOR,
  'POST /ops/orgs/:id/users/:userId/suspend': OPERATOR,
  'POST /ops/orgs/:id/users/:userId/restore': OPERATOR,
  'POST /ops/orgs/:id/users/:userId/reset_sessions': OPERATOR,
  'GET /ops/pricing': OPERATOR,
  'PUT /ops/pricing': OPERATOR,
  // ----- the operator console, part B (queues, mail hosts, payments): add below this line -----
  'GET /ops/queues': OPERATOR,
  'GET /ops/queues/failed': OPERATOR,
  'POST /ops/queues/retry': OPERATOR,
  'POST /ops/queues/discard': OPERATOR,
  'GET /ops/mail_hosts': OPERATOR,
  'POST /ops/mail_hosts/pause': OPERATOR,
  'POST /ops/mail_hosts/resume': OPERATOR,
  'GET /ops/payments/events': OPERATOR,
} as const;
