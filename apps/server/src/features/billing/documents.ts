import { getLocalDay } from '@verilead/contracts';
import type { TDb } from '../../platform/db/database';
import { AppError } from '../../platform/errors/app-error';
import type { TCallerContext } from '../../platform/tenancy/context';
import { selectUserTimeZone } from '../../platform/tenancy/time-zone';
import { selectBillingProfile, selectOrgName, selectPayment, selectPaymentsPage, selectPlan, selectSeller, selectUserEmail } from './queries';
import { renderInvoicePdf } from './invoice-pdf';
import { paymentToApi } from './payments';

/**
 * Invoices and receipts: the lists and their PDFs. Only a payment that was made is an invoice (and its receipt): it
 * got its number when it was paid. Unpaid checkouts are drafts, listed as pending for a day, then hidden.
 */
export async function listPayments(db: TDb, ctx: TCallerContext, which: 'invoices' | 'pending' | 'receipts', page: { page: number; limit: number }) {
  const { items, total } = await selectPaymentsPage(db, ctx.orgId, which === 'pending' ? 'pending' : 'paid', page.page, page.limit);
  return { items: items.map((r) => paymentToApi(r.payment, r.planName)), total };
}

export async function getPaymentForDocument(db: TDb, ctx: TCallerContext, id: string, kind: 'invoice' | 'receipt') {
  const p = await selectPayment(db, ctx.orgId, id);
  if (!p || (kind === 'receipt' && p.status !== 'paid') || (p.status !== 'paid' && p.status !== 'pending' && p.status !== 'requires_action')) {
    throw new AppError('not_found', kind === 'receipt' ? 'Receipt not found' : 'Invoice not found');
  }
  return p;
}

/**
 * The invoice or receipt of a payment of the caller's organisation, as a PDF: the seller (the operator's price file),
 * the buyer's billing details as they were when it was paid (as they are now for an unpaid one), the plan and period.
 */
export async function renderPaymentDocument(db: TDb, ctx: TCallerContext, id: string, kind: 'invoice' | 'receipt') {
  const p = await getPaymentForDocument(db, ctx, id, kind);
  const orgName = await selectOrgName(db, ctx.orgId);
  const email = await selectUserEmail(db, p.userId ?? ctx.userId);
  const plan = p.planId ? await selectPlan(db, p.planId) : null;
  const api = paymentToApi(p, plan?.name ?? null);
  const profile = p.buyer ?? (p.status === 'paid' ? null : await selectBillingProfile(db, ctx.orgId).then((r) => (r ? { name: r.name, address: r.address, tax_id: r.taxId } : null)));
  const seller = await selectSeller(db);
  // Dates as the requesting user's day (their time zone setting).
  const timeZone = await selectUserTimeZone(db, ctx.userId);
  const pdf = await renderInvoicePdf(
    kind,
    { ...api, plan_interval: plan?.interval ?? null },
    {
      orgName: orgName ?? '',
      email: email ?? '',
      buyer: profile,
      seller: seller ? { name: seller.name, address: seller.address, tax_id: seller.taxId } : null,
    },
    (iso) => getLocalDay(new Date(iso), timeZone),
  );
  return { pdf, fileName: `${kind}-${api.number ?? `draft-${api.id.slice(0, 8)}`}.pdf` };
}
