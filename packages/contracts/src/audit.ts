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
  'bounce_webhook.changed': 'Bounce webhook changed',
  'billing.payment_method_changed': 'Payment method changed',
  'billing.plan_changed': 'Plan changed',
  'account.deleted': 'Account deleted',
  'support_access.granted': 'Support access granted',
  'support_access.revoked': 'Support access ended',
  // Operator actions (the operator console, features/ops-console): recorded here and in the operator-side log.
  'operator.credits_adjusted': 'Credits adjusted by Verilead support',
  'operator.user_suspended': 'User suspended by Verilead support',
  'operator.user_restored': 'User restored by Verilead support',
  'operator.sessions_reset': 'User signed out everywhere by Verilead support',
  'operator.org_suspended': 'Organisation suspended by Verilead support',
  'operator.org_restored': 'Organisation restored by Verilead support',
  'operator.lists_viewed': 'Lists viewed by Verilead support (support access)',
  'operator.operator_invited': 'Operator invited (console-wide)',
  'operator.operator_disabled': 'Operator disabled (console-wide)',
  'operator.operator_enabled': 'Operator enabled again (console-wide)',
  'operator.signed_in': 'Operator signed in (console-wide)',
  'operator.sign_in_failed': 'Operator sign-in failed (console-wide)',
  'operator.sign_in_locked': 'Operator sign-in refused: too many failures (console-wide)',
  'operator.pricing_changed': 'Prices changed (console-wide)',
  'operator.job_retried': 'Failed job retried by Verilead support',
  'operator.job_discarded': 'Failed job discarded by Verilead support',
  'operator.mail_host_paused': 'Mail host paused (console-wide)',
  'operator.mail_host_resumed': 'Mail host resumed (console-wide)',
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
  /** The actor's e-mail as recorded with the entry; null when none is known, and once the actor's account is deleted (never the erased address). */
  actor_email: z.string().nullable(),
  /**
   * The actor's name today, found only among the members of the entry's own organisation: "Deleted user" once their
   * account is deleted; null when they have no name or are no such member (the e-mail alone then tells who acted).
   */
  actor_name: z.string().nullable(),
  target_type: z.string().nullable(),
  target_id: z.string().nullable(),
  /**
   * Who or what the entry is about, in words: a member's name and e-mail (only a member of the caller's own
   * organisation; "Deleted user" once their account is deleted), else the name recorded with the entry (an app, a
   * webhook) or a target id that is readable itself (an SSO domain). Null when there is none.
   */
  target_name: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  ip: z.string().nullable(),
});
export type TAuditLogEntry = z.infer<typeof ZAuditLogEntry>;
export const ZAuditLogData = ZPaged(ZAuditLogEntry);
export const ZAuditLogResponse = ZSuccess(ZAuditLogData);
