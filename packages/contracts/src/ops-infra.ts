import { z } from 'zod';
import { ZPage, ZPaged, ZPageSize } from './common';
import { ZSuccess } from './envelopes';

// The operator console's infrastructure screens (issue 31 point 1): job queues, the verifier's mail hosts, payments.

/** The job queues (one per kind of work; the server's JOB_QUEUE_NAMES). */
export const OPS_JOB_QUEUES = ['mail', 'webhooks', 'exports', 'analysis', 'verification', 'finder', 'maintenance', 'integrations'] as const;
export const ZOpsJobQueue = z.enum(OPS_JOB_QUEUES, { message: 'Please choose a queue from the list' });

export const ZOpsQueueFigures = z.object({
  queue: z.string(),
  /** Ready to run, not started. */
  waiting: z.number().int(),
  /** Scheduled later (a retry's back-off, a delayed job). */
  delayed: z.number().int(),
  /** How long the oldest ready job has waited (seconds; null when none waits). */
  oldest_waiting_seconds: z.number().nullable(),
  running: z.number().int(),
  /** Finished jobs still kept in the job table (JOB_RETENTION_HOURS for completed, 7 days for failed). */
  completed: z.number().int(),
  failed: z.number().int(),
  completed_last_hour: z.number().int(),
  failed_last_hour: z.number().int(),
});
export type TOpsQueueFigures = z.infer<typeof ZOpsQueueFigures>;
export const ZOpsQueuesResponse = ZSuccess(z.object({ queues: z.array(ZOpsQueueFigures) }));

export const ZOpsFailedJobsQuery = z.object({
  page: ZPage.default(1),
  limit: ZPageSize.default(25),
  queue: ZOpsJobQueue.optional(),
});
export type TOpsFailedJobsQuery = z.input<typeof ZOpsFailedJobsQuery>;

export const ZOpsFailedJob = z.object({
  id: z.string(),
  queue: z.string(),
  /** The job kind (e.g. email_verifier.verify_chunk). */
  kind: z.string(),
  org_id: z.string().nullable(),
  org_name: z.string().nullable(),
  attempts: z.number().int(),
  /** The last error, e-mail addresses masked (operators never see a customer's contact data). */
  error: z.string(),
  created_at: z.string(),
  failed_at: z.string().nullable(),
});
export type TOpsFailedJob = z.infer<typeof ZOpsFailedJob>;
export const ZOpsFailedJobsData = ZPaged(ZOpsFailedJob);
export const ZOpsFailedJobsResponse = ZSuccess(ZOpsFailedJobsData);

export const ZOpsJobAction = z.object({
  queue: ZOpsJobQueue,
  id: z.uuid({ message: 'Please give the id of a job' }),
});
export type TOpsJobAction = z.infer<typeof ZOpsJobAction>;
export const ZOpsJobActionResponse = ZSuccess(z.object({ id: z.string(), queue: z.string(), action: z.enum(['retried', 'discarded']) }));

export const ZOpsHostReply = z.object({ at: z.string(), line: z.string() });
export const ZOpsMailHost = z.object({
  /** "ip:port" */
  host: z.string(),
  exchange: z.string().nullable(),
  paused: z.boolean(),
  sessions_open: z.number().int(),
  sessions_opening: z.number().int(),
  in_use: z.number().int(),
  /** Sessions the engine may hold there now. */
  capacity: z.number().int(),
  /** The connection limit learned from the host's 421, while fresh. */
  learned_connections: z.number().int().nullable(),
  error_budget: z.number().int(),
  non_mail_budget: z.number().int(),
  refused_sessions: z.number().int(),
  rate_limited: z.number().int(),
  cut_sessions: z.number().int(),
  back_off_ms: z.number(),
  /** Held as down (failures in a row) until then. */
  down_until: z.string().nullable(),
  recent_replies: z.array(ZOpsHostReply),
});
export type TOpsMailHost = z.infer<typeof ZOpsMailHost>;

export const ZOpsHostProcess = z.object({
  process_id: z.string(),
  role: z.string(),
  hostname: z.string(),
  pid: z.number().int(),
  /** The process answering this request (its view read now, not from its last snapshot). */
  this_process: z.boolean(),
  updated_at: z.string(),
  /** No snapshot for over 30 s: the process stopped or is stuck. */
  stale: z.boolean(),
  hosts: z.array(ZOpsMailHost),
});
export type TOpsHostProcess = z.infer<typeof ZOpsHostProcess>;

export const ZOpsPausedHost = z.object({ host: z.string(), note: z.string().nullable(), paused_by: z.string().nullable(), paused_at: z.string() });
export type TOpsPausedHost = z.infer<typeof ZOpsPausedHost>;

export const ZOpsMailHostsData = z.object({ processes: z.array(ZOpsHostProcess), paused: z.array(ZOpsPausedHost) });
export type TOpsMailHostsData = z.infer<typeof ZOpsMailHostsData>;
export const ZOpsMailHostsResponse = ZSuccess(ZOpsMailHostsData);

/** A mail host to pause: an "ip:port", an ip or an MX host name. */
export const ZOpsHostName = z
  .string()
  .trim()
  .toLowerCase()
  .min(1, { message: 'Please enter a mail host' })
  .max(253, { message: 'A mail host is at most 253 characters' })
  .regex(/^[a-z0-9.:\-[\]]+$/, { message: 'Please enter an MX host name, an IP address or ip:port' });
export const ZOpsPauseHost = z.object({ host: ZOpsHostName, note: z.string().trim().max(200, { message: 'A note is at most 200 characters' }).optional() });
export type TOpsPauseHost = z.infer<typeof ZOpsPauseHost>;
export const ZOpsResumeHost = z.object({ host: ZOpsHostName });
export type TOpsResumeHost = z.infer<typeof ZOpsResumeHost>;
export const ZOpsPausedHostsResponse = ZSuccess(z.object({ paused: z.array(ZOpsPausedHost) }));

export const ZOpsPaymentEventsQuery = z.object({
  page: ZPage.default(1),
  limit: ZPageSize.default(25),
  /** Only failures: failed payments and events not processed within 10 minutes. */
  failures: z
    .enum(['true', 'false'], { message: 'Please answer true or false' })
    .optional()
    .transform((v) => v === 'true'),
  provider: z.enum(['stripe', 'paypal'], { message: 'Please choose Stripe or PayPal' }).optional(),
});
export type TOpsPaymentEventsQuery = z.input<typeof ZOpsPaymentEventsQuery>;

export const ZOpsPaymentEvent = z.object({
  provider: z.string(),
  event_id: z.string(),
  type: z.string(),
  received_at: z.string(),
  processed_at: z.string().nullable(),
  org_id: z.string().nullable(),
  org_name: z.string().nullable(),
  amount_minor: z.number().nullable(),
  currency: z.string().nullable(),
  /** A failed payment, or an event its job has not processed within 10 minutes. */
  failure: z.boolean(),
  /** The provider's failure message (a decline reason), when it gave one: never card data. */
  failure_message: z.string().nullable(),
});
export type TOpsPaymentEvent = z.infer<typeof ZOpsPaymentEvent>;
export const ZOpsPaymentEventsData = ZPaged(ZOpsPaymentEvent);
export const ZOpsPaymentEventsResponse = ZSuccess(ZOpsPaymentEventsData);
