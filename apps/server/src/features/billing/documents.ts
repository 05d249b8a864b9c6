import { eq } from 'drizzle-orm';
import { getLocalDay, type TPaymentStatus } from '@verilead/contracts';
import type { TDb } from '../../platform/db/database';
import { AppError } from '../../platform/errors/app-error';
import type { TCallerContext } from '../../platform/tenancy/context';
import { selectUserTimeZone } from '../../platform/tenancy/time-zone';
import { selectPayment, selectPaymentsPage } from './queries';
import { renderInvoicePdf } from './invoice-pdf';
import { organisations, users } from '../../platform/tenancy/tables';
import { paymentToApi } from './payments';

/** Invoices and receipts: the lists and their PDFs. */
export async function listPayments(db: TDb, ctx: TCallerContext, which: 'invoices' | 'pending' | 'receipts', page: { page: number; limit: number }) {
  const statuses: TPaymentStatus[] | null = which === 'pending' ? ['pending', 'requires_action'] : which === 'receipts' ? ['paid'] : null;
  const { items, total } = await selectPaymentsPage(db, ctx.orgId, statuses, page.page, page.limit);
  return { items: items.map(paymentToApi), total };
}

export async function getPaymentForDocument(db: TDb, ctx: TCallerContext, id: string, kind: 'invoice' | 'receipt') {
  const p = await selectPayment(db, ctx.orgId, id);
  if (!p || (kind === 'receipt' && p.status !== 'paid')) throw new AppError(404, 'not_found', kind === 'receipt' ? 'Receipt not found' : 'Invoice not found');
  return p;
}

/** The invoice or receipt of a payment of the caller's organisation, as a PDF. */
export async function renderPaymentDocument(db: TDb, ctx: TCallerContext, id: string, kind: 'invoice' | 'receipt') {
  const p = await getPaymentForDocument(db, ctx, id, kind);
  const org = await db.select({ name: organisations.name }).from(organisations).where(eq(organisations.id, ctx.orgId)).limit(1);
  const user = await db.select({ email: users.email }).from(users).where(eq(users.id, p.userId ?? ctx.userId)).limit(1);
  const api = paymentToApi(p);
  // Dates as the requesting user's day (their time zone setting).
  const timeZone = await selectUserTimeZone(db, ctx.userId);
  const pdf = await renderInvoicePdf(kind, api, { orgName: org[0]?.name ?? '', email: user[0]?.email ?? '' }, (iso) => getLocalDay(new Date(iso), timeZone));
  return { pdf, fileName: `${kind}-${api.number}.pdf` };
}
