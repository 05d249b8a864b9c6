import { asc, eq, sql } from 'drizzle-orm';
import { selectRows, type TDatabase, type TDb } from '../../platform/db/database';
import { JOB_SCHEMA } from '../../platform/db/job-schema';
import { mailHostPauses, mailHostSnapshots } from '../../platform/verifier/tables';

const J = JOB_SCHEMA;

export type TQueueRow = {
  queue: string;
  waiting: number;
  delayed: number;
  oldest_waiting_seconds: number | null;
  running: number;
  completed: number;
  failed: number;
  completed_last_hour: number;
  failed_last_hour: number;
};

/** Per queue, from pg-boss's job table (finished jobs stay there until archived): one grouped read, 5 s at most. */
export async function selectQueueFigures(database: TDatabase): Promise<TQueueRow[]> {
  return database.transaction(async (tx) => {
    await tx.execute(sql`set local statement_timeout = '5s'`);
    return selectRows<TQueueRow>(
      tx,
      sql.raw(`select name as queue,
                      (count(*) filter (where state < 'active' and start_after <= now()))::int as waiting,
                      (count(*) filter (where state < 'active' and start_after > now()))::int as delayed,
                      extract(epoch from now() - min(start_after) filter (where state < 'active' and start_after <= now()))::float8 as oldest_waiting_seconds,
                      (count(*) filter (where state = 'active'))::int as running,
                      (count(*) filter (where state = 'completed'))::int as completed,
                      (count(*) filter (where state = 'failed'))::int as failed,
                      (count(*) filter (where state = 'completed' and completed_on > now() - interval '1 hour'))::int as completed_last_hour,
                      (count(*) filter (where state = 'failed' and completed_on > now() - interval '1 hour'))::int as failed_last_hour
                 from ${J}.job group by name`),
    );
  });
}

export type TFailedJobRow = {
  id: string;
  queue: string;
  kind: string | null;
  org_id: string | null;
  org_name: string | null;
  attempts: number;
  error: string | null;
  created_at: string;
  failed_at: string | null;
};

const FAILED_COLUMNS = `j.id::text as id, j.name as queue, j.data->>'kind' as kind, s.org_id::text as org_id, o.name as org_name,
  (j.retry_count + 1)::int as attempts,
  coalesce(j.output->>'message', j.output::text) as error,
  to_char(j.created_on at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at,
  to_char(j.completed_on at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as failed_at`;
const FAILED_FROM = `${J}.job j left join job_status s on s.id = j.id left join organisations o on o.id = s.org_id`;

/** Failed jobs (after their last attempt), newest failure first, with the organisation they belong to. */
export async function selectFailedJobs(db: TDb, q: { queue?: string; limit: number; offset: number }): Promise<{ rows: TFailedJobRow[]; total: number }> {
  const where = sql`j.state = 'failed'${q.queue ? sql` and j.name = ${q.queue}` : sql``}`;
  const rows = await selectRows<TFailedJobRow>(
    db,
    sql`select ${sql.raw(FAILED_COLUMNS)} from ${sql.raw(FAILED_FROM)} where ${where} order by j.completed_on desc nulls last, j.id limit ${q.limit} offset ${q.offset}`,
  );
  const count = await selectRows<{ n: number }>(db, sql`select count(*)::int as n from ${sql.raw(`${J}.job`)} j where ${where}`);
  return { rows, total: count[0]?.n ?? 0 };
}

/** One failed job of a queue (null when it is not failed, or not there). */
export async function selectFailedJob(db: TDb, queue: string, id: string): Promise<TFailedJobRow | null> {
  const rows = await selectRows<TFailedJobRow>(db, sql`select ${sql.raw(FAILED_COLUMNS)} from ${sql.raw(FAILED_FROM)} where j.state = 'failed' and j.name = ${queue} and j.id = ${id}::uuid`);
  return rows[0] ?? null;
}

export async function selectPausedHosts(db: TDb) {
  return db.select().from(mailHostPauses).orderBy(asc(mailHostPauses.pausedAt), asc(mailHostPauses.host));
}

export async function upsertPausedHost(db: TDb, p: { host: string; note: string | null; pausedBy: string }) {
  await db
    .insert(mailHostPauses)
    .values(p)
    .onConflictDoUpdate({ target: mailHostPauses.host, set: { note: p.note, pausedBy: p.pausedBy } });
}

/** Lifts a pause: false when the host was not paused. */
export async function deletePausedHost(db: TDb, host: string): Promise<boolean> {
  const gone = await db.delete(mailHostPauses).where(eq(mailHostPauses.host, host)).returning({ host: mailHostPauses.host });
  return gone.length > 0;
}

export async function selectHostSnapshots(db: TDb) {
  return db.select().from(mailHostSnapshots).orderBy(asc(mailHostSnapshots.role), asc(mailHostSnapshots.processId));
}

export type TPaymentEventRow = {
  provider: string;
  event_id: string;
  type: string;
  received_at: string;
  processed_at: string | null;
  org_id: string | null;
  org_name: string | null;
  amount_minor: number | null;
  currency: string | null;
  failure: boolean;
  failure_message: string | null;
};

/** An event not processed within this long counts as a failure (its job failed or never ran). */
export const UNPROCESSED_FAILURE_MINUTES = 10;

const UUID = `'^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$'`;
const asNumber = (path: string) => `(case when e.payload #>> '${path}' ~ '^-?[0-9]{1,15}(\\.[0-9]{1,6})?$' then (e.payload #>> '${path}')::numeric end)`;
const asUuid = (path: string) => `(case when e.payload #>> '${path}' ~ ${UUID} then (e.payload #>> '${path}')::uuid end)`;
/** Failed payments as the providers name them (Stripe: payment_failed, PayPal: DENIED / FAILED). */
const FAILURE = `(e.type ilike '%fail%' or e.type ilike '%denied%' or e.type ilike '%declined%'
  or (e.processed_at is null and e.received_at < now() - interval '${UNPROCESSED_FAILURE_MINUTES} minutes'))`;

/**
 * Payment provider events, newest first, with the organisation each belongs to: from the object's metadata (Stripe
 * Checkout, payment intents, subscriptions and their invoices), the payment it names (Stripe's `payment_id`, PayPal's
 * `custom_id`) or the Stripe customer. Only named fields are read from the payload (amount, currency, the decline
 * message), never card details.
 */
export async function selectPaymentEvents(db: TDb, q: { failures: boolean; provider?: string; limit: number; offset: number }): Promise<{ rows: TPaymentEventRow[]; total: number }> {
  const where = sql`true${q.failures ? sql` and ${sql.raw(FAILURE)}` : sql``}${q.provider ? sql` and e.provider = ${q.provider}` : sql``}`;
  const paymentId = `coalesce(${asUuid('{data,object,metadata,payment_id}')}, ${asUuid('{resource,custom_id}')})`;
  const rows = await selectRows<TPaymentEventRow>(
    db,
    sql`select e.provider, e.event_id, e.type,
               to_char(e.received_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as received_at,
               to_char(e.processed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as processed_at,
               o.id::text as org_id, o.name as org_name,
               coalesce(${sql.raw(asNumber('{data,object,amount_total}'))}, ${sql.raw(asNumber('{data,object,amount_due}'))}, ${sql.raw(asNumber('{data,object,amount}'))},
                        round(coalesce(${sql.raw(asNumber('{resource,amount,total}'))}, ${sql.raw(asNumber('{resource,amount,value}'))}) * 100))::float8 as amount_minor,
               lower(coalesce(e.payload #>> '{data,object,currency}', e.payload #>> '{resource,amount,currency}', e.payload #>> '{resource,amount,currency_code}')) as currency,
               ${sql.raw(FAILURE)} as failure,
               coalesce(e.payload #>> '{data,object,last_payment_error,message}', e.payload #>> '{data,object,failure_message}',
                        e.payload #>> '{data,object,last_finalization_error,message}', e.payload #>> '{resource,reason_code}') as failure_message
          from payment_events e
          left join lateral (
            select coalesce(${sql.raw(asUuid('{data,object,metadata,org_id}'))}, ${sql.raw(asUuid('{data,object,subscription_details,metadata,org_id}'))},
                            ${sql.raw(asUuid('{data,object,parent,subscription_details,metadata,org_id}'))},
                            (select p.org_id from payments p where p.id = ${sql.raw(paymentId)}),
                            (select c.org_id from billing_customers c where c.provider_customer_id = e.payload #>> '{data,object,customer}' limit 1)) as org_id
          ) owner on true
          left join organisations o on o.id = owner.org_id
         where ${where}
         order by e.received_at desc, e.event_id
         limit ${q.limit} offset ${q.offset}`,
  );
  const count = await selectRows<{ n: number }>(db, sql`select count(*)::int as n from payment_events e where ${where}`);
  return { rows, total: count[0]?.n ?? 0 };
}
