import type { TOpsPaymentEvent } from '@verilead/contracts';
import type { TDeps } from '../../platform/deps';
import { selectPaymentEvents } from './queries';

/** Recent payment provider events (webhooks as billing stores them) or only the failures, paged, with organisation names. */
export async function listPaymentEvents(deps: Pick<TDeps, 'database'>, q: { page: number; limit: number; failures: boolean; provider?: string }) {
  const { rows, total } = await selectPaymentEvents(deps.database.db, { failures: q.failures, provider: q.provider, limit: q.limit, offset: (q.page - 1) * q.limit });
  const items: TOpsPaymentEvent[] = rows.map((r) => ({ ...r, amount_minor: r.amount_minor === null ? null : Number(r.amount_minor), failure: Boolean(r.failure) }));
  return { items, total, page: q.page, limit: q.limit };
}
