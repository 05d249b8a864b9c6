import { z } from 'zod';
import { ZDateInput, ZPage, ZPaged, ZPageSize } from './common';
import { ZSuccess } from './envelopes';

/** What the audit log records (issue 31 point 3), with the label the screen shows. */
export const AUDIT_ACTIONS = {
  'auth.sign_in': 'Signed in',
  'auth.sign_in_failed': 'Sign-in failed',
  'sso.settings_changed': 'SSO settings changed',
  'sso.domain_verified': 'SSO domain proved',
  'team.member_invited': 'Member invited',
  'team.member_role_changed': 'Member role changed',
  'team.member_limits_changed': 'Member limits changed',
  'team.member_removed': 'Member removed',
  'app.created': 'App created',
  'app.token_rotated': 'App token rotated',
  'app.deleted': 'App deleted',
  'api_key.created': 'API key created',
  'webhook.created': 'Webhook created',
  'webhook.updated': 'Webhook changed',
  'webhook.deleted': 'Webhook deleted',
  'billing.payment_method_changed': 'Payment method changed',
  'billing.plan_changed': 'Plan changed',
  'account.deleted': 'Account deleted',
} as const;
export type TAuditAction = keyof typeof AUDIT_ACTIONS;
export const AUDIT_ACTION_KEYS = Object.keys(AUDIT_ACTIONS) as [TAuditAction, ...TAuditAction[]];
export const ZAuditAction = z.enum(AUDIT_ACTION_KEYS, { message: 'Please choose an action from the list' });

export const ZAuditLogQuery = z.object({
  page: ZPage.default(1),
  limit: ZPageSize.default(25),
  action: ZAuditAction.optional(),
  /** The member who acted (their user id). */
  actor_id: z.uuid({ message: 'Please choose a member from the list' }).optional(),
  from: ZDateInput.optional(),
  to: ZDateInput.optional(),
});
export type TAuditLogQuery = z.input<typeof ZAuditLogQuery>;

export const ZAuditLogExportQuery = ZAuditLogQuery.omit({ page: true, limit: true });

export const ZAuditLogEntry = z.object({
  id: z.string(),
  created_at: z.string(),
  action: z.string(),
  action_label: z.string(),
  actor_id: z.string().nullable(),
  actor_email: z.string().nullable(),
  target_type: z.string().nullable(),
  target_id: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  ip: z.string().nullable(),
});
export type TAuditLogEntry = z.infer<typeof ZAuditLogEntry>;
export const ZAuditLogData = ZPaged(ZAuditLogEntry);
export const ZAuditLogResponse = ZSuccess(ZAuditLogData);
