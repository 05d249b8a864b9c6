/**
 * The operator console (issue 31 point 1): operators are not organisation members. Their routes live under
 * /api/v1/ops/… with the `operator` access of the authorisation table; their sessions are `vlo_` bearer tokens that
 * customer routes never accept (and customer tokens are refused here).
 */
import { z } from 'zod';
import { ZEmail, ZPage, ZPaged, ZPageSize, ZPassword, ZPersonName } from './common';
import { ZSuccess } from './envelopes';

/** Prefix of an operator session token (customer sessions are `vls_`, API keys `vlk_`). */
export const OPERATOR_TOKEN_PREFIX = 'vlo';
/** How long an operator's one-time link (set the password) works. */
export const OPERATOR_LINK_TTL_HOURS = 48;
/** The ledger's label of an operator's credit adjustment, before the operator's reason. */
export const OPERATOR_ADJUSTMENT_LABEL = 'Adjustment by Verilead support';
/** The ledger rows' object type of an operator adjustment (the customer's ledger shows it as a line of its own). */
export const OPERATOR_ADJUSTMENT_OBJECT = 'operator_adjustment';

export const ZOperator = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  /** False until the operator set a password with their link. */
  active: z.boolean(),
  /** True once another operator (or the ops command) disabled them: no sign-in, sessions and links revoked. */
  disabled: z.boolean(),
  created_at: z.string(),
});
export type TOperator = z.infer<typeof ZOperator>;

export const ZOperatorLoginRequest = z.object({ email: ZEmail, password: z.string().min(1, 'Please enter your password').max(200) });
export const ZOperatorLoginData = z.object({ token: z.string(), operator: ZOperator });
export type TOperatorLoginData = z.infer<typeof ZOperatorLoginData>;
export const ZOperatorLoginResponse = ZSuccess(ZOperatorLoginData);
export const ZOperatorMeResponse = ZSuccess(ZOperator);

export const ZOperatorSetPasswordRequest = z.object({ token: z.string().min(1).max(200), password: ZPassword });

export const ZOperatorInviteRequest = z.object({ email: ZEmail, name: ZPersonName.optional() });
export const ZOperatorLink = z.object({ operator: ZOperator, url: z.string(), expires_at: z.string() });
export type TOperatorLink = z.infer<typeof ZOperatorLink>;
/**
 * An invitation's answer: the link is mailed to the invitee only, never answered to the inviting operator (only the
 * ops command, which proves it holds APP_SECRET, is answered a link: the first operator).
 */
export const ZOperatorInvitation = z.object({ operator: ZOperator, expires_at: z.string(), message: z.string() });
export type TOperatorInvitation = z.infer<typeof ZOperatorInvitation>;
export const ZOperatorInviteResponse = ZSuccess(ZOperatorInvitation);
export const ZOperatorIdParams = z.object({ id: z.uuid({ message: 'Not found' }) });
/** Disables or enables an operator: the ops command's request (`npm run ops -- disable-operator <email>`). */
export const ZOperatorStatusRequest = z.object({ email: ZEmail, disabled: z.boolean() });
export const ZOperatorStatusResponse = ZSuccess(z.object({ operator: ZOperator, message: z.string() }));
export const ZOperatorListResponse = ZSuccess(z.object({ items: z.array(ZOperator) }));

// ----- organisations and users -----

export const ZOpsOrgSearchQuery = z.object({
  /** Matches the organisation's name, a member's e-mail or an e-mail domain; empty lists the newest. */
  q: z.string().trim().max(200).optional(),
  page: ZPage.default(1),
  limit: ZPageSize.default(25),
});
export type TOpsOrgSearchQuery = z.input<typeof ZOpsOrgSearchQuery>;

export const ZOpsOrgSummary = z.object({
  id: z.string(),
  name: z.string(),
  owner_email: z.string().nullable(),
  members: z.number().int(),
  credits_balance: z.number().int(),
  plan_interval: z.string(),
  suspended: z.boolean(),
  created_at: z.string(),
});
export type TOpsOrgSummary = z.infer<typeof ZOpsOrgSummary>;
export const ZOpsOrgSearchResponse = ZSuccess(ZPaged(ZOpsOrgSummary));

export const ZOpsMember = z.object({
  user_id: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.string(),
  status: z.string(),
  suspended: z.boolean(),
  last_sign_in_at: z.string().nullable(),
  open_sessions: z.number().int(),
});
export type TOpsMember = z.infer<typeof ZOpsMember>;

export const ZOpsOrgDetail = ZOpsOrgSummary.extend({
  members_list: z.array(ZOpsMember),
  /** Counts only, never the lists' contents: what the organisation did in the last 30 days. */
  activity_30d: z.object({ verify_lists: z.number().int(), finder_lists: z.number().int(), credits_used: z.number().int() }),
  support_access_until: z.string().nullable(),
  recent_adjustments: z.array(
    z.object({ id: z.string(), amount: z.number().int(), reason: z.string(), balance_after: z.number().int(), operator_email: z.string().nullable(), created_at: z.string() }),
  ),
});
export type TOpsOrgDetail = z.infer<typeof ZOpsOrgDetail>;
export const ZOpsOrgDetailResponse = ZSuccess(ZOpsOrgDetail);

export const ZOpsIdParams = z.object({ id: z.uuid({ message: 'Not found' }) });
export const ZOpsOrgUserParams = z.object({ id: z.uuid({ message: 'Not found' }), userId: z.uuid({ message: 'Not found' }) });

export const ZOpsReasonRequest = z.object({ reason: z.string().trim().max(500).optional() });

// ----- credits -----

export const ZOpsCreditAdjustmentRequest = z.object({
  direction: z.enum(['grant', 'remove'], { message: 'Please choose grant or remove' }),
  amount: z.coerce
    .number({ message: 'Please enter a number of credits' })
    .int('Please enter a whole number of credits')
    .min(1, 'Please enter at least 1 credit')
    .max(10_000_000, 'At most 10,000,000 credits at a time'),
  reason: z.string().trim().min(3, 'Please give the reason (it is shown to the customer)').max(300, 'The reason is at most 300 characters'),
  /** A key the console makes once per dialog: a retried request answers the first result and never adjusts twice. */
  idempotency_key: z.string().trim().min(8).max(100),
});
export type TOpsCreditAdjustmentRequest = z.input<typeof ZOpsCreditAdjustmentRequest>;
export const ZOpsCreditAdjustment = z.object({
  id: z.string(),
  amount: z.number().int(),
  balance_after: z.number().int(),
  /** True when this answer repeats an earlier request with the same key. */
  replayed: z.boolean(),
});
export type TOpsCreditAdjustment = z.infer<typeof ZOpsCreditAdjustment>;
export const ZOpsCreditAdjustmentResponse = ZSuccess(ZOpsCreditAdjustment);

// ----- support access (owner side and operator side) -----

export const SUPPORT_ACCESS_HOURS = [1, 24, 72, 168] as const;
export const ZSupportAccessRequest = z.object({
  hours: z.coerce
    .number()
    .int()
    .refine((h) => (SUPPORT_ACCESS_HOURS as readonly number[]).includes(h), { message: 'Please choose 1 hour, 1 day, 3 days or 7 days' }),
});
export const ZSupportAccess = z.object({ until: z.string().nullable(), active: z.boolean() });
export type TSupportAccess = z.infer<typeof ZSupportAccess>;
export const ZSupportAccessResponse = ZSuccess(ZSupportAccess);

/** What support sees of an organisation's lists with access granted: names, counts and result summaries. */
export const ZOpsOrgLists = z.object({
  items: z.array(
    z.object({ id: z.string(), name: z.string(), state: z.string(), rows: z.number().int(), created_at: z.string(), results: z.record(z.string(), z.number()) }),
  ),
});
export const ZOpsOrgListsResponse = ZSuccess(ZOpsOrgLists);

// ----- the operator-side log -----

export const ZOpsActionQuery = z.object({ page: ZPage.default(1), limit: ZPageSize.default(25), org_id: z.uuid().optional() });
export const ZOpsAction = z.object({
  id: z.string(),
  operator_email: z.string(),
  action: z.string(),
  org_id: z.string().nullable(),
  target_type: z.string().nullable(),
  target_id: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  created_at: z.string(),
});
export const ZOpsActionListResponse = ZSuccess(ZPaged(ZOpsAction));

// ----- pricing -----

/** The pricing file's content as the console edits it: JSON text, checked by the server's price schema. */
export const ZOpsPricingUpdateRequest = z.object({ config: z.unknown() });
