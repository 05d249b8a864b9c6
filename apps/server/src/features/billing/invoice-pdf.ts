import type { TPayment } from '@verilead/contracts';

type TParty = { name: string; address: string; tax_id: string };
export type TInvoiceParty = { orgName: string; email: string; buyer?: TParty | null; seller?: TParty | null };

function money(currency: string, amount: number): string {
  return `${currency} ${amount.toFixed(2)}`;
}

const INTERVAL_WORDS: Record<string, string> = { monthly: 'monthly', annual: 'annual', one_time: 'one time' };

/** The invoice line: the credits bought, or the plan's name and interval with the period it pays for. */
export function describeLine(p: TPayment & { plan_interval?: string | null }, formatDay: (iso: string) => string): string {
  const credits = `${p.credits.toLocaleString('en-US')} credits${p.bonus_credits ? ` (+${p.bonus_credits.toLocaleString('en-US')} bonus)` : ''}`;
  if (p.kind !== 'plan') return credits;
  const interval = p.plan_interval ? ` (${INTERVAL_WORDS[p.plan_interval] ?? p.plan_interval})` : '';
  const period = p.period_start && p.period_end ? `, ${formatDay(p.period_start)} to ${formatDay(p.period_end)}` : '';
  return `Plan ${p.plan_name ?? ''}${interval}${period}: ${credits}`;
}

/**
 * Renders an invoice (any status) or a receipt (paid) as a one-page PDF. `formatDay` writes a date-time of the payment
 * as the day the reader sees (their time zone); the UTC day when not given. An unpaid payment is no invoice: it prints
 * as a pro forma, without a number.
 */
export async function renderInvoicePdf(
  kind: 'invoice' | 'receipt',
  p: TPayment & { plan_interval?: string | null },
  party: TInvoiceParty,
  formatDay: (iso: string) => string = (iso) => iso.slice(0, 10),
): Promise<Buffer> {
  // pdfkit (~14 MB of fonts and code) is loaded on the first invoice, not by every server process at start.
  const { default: PDFDocument } = await import('pdfkit');
  const title = kind === 'receipt' ? `Receipt ${p.number ?? ''}`.trim() : p.status === 'paid' ? `Invoice ${p.number ?? ''}`.trim() : 'Pro forma invoice (not paid)';
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4', margin: 56, info: { Title: title, Author: party.seller?.name ?? 'Verilead' } });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    const left = 56;

    doc.fontSize(22).text(party.seller?.name ?? 'Verilead', { continued: false });
    doc.fontSize(10);
    if (party.seller?.address) doc.text(party.seller.address);
    if (party.seller?.tax_id) doc.text(`Tax id: ${party.seller.tax_id}`);
    doc.moveDown(0.5).fontSize(16).text(title);
    doc.moveDown(0.5).fontSize(11);
    const buyer = party.buyer;
    doc.text(`Billed to: ${buyer?.name || party.orgName}`);
    if (buyer?.address) doc.text(buyer.address);
    if (buyer?.tax_id) doc.text(`Tax id: ${buyer.tax_id}`);
    doc.text(`E-mail: ${party.email}`);
    doc.moveDown(0.3);
    doc.text(`Date: ${formatDay(p.created_at)}`);
    doc.text(`Status: ${p.status === 'paid' ? `Paid on ${p.paid_at ? formatDay(p.paid_at) : ''}` : p.status.replace('_', ' ')}`);
    doc.moveDown();

    const rows: [string, string][] = [[describeLine(p, formatDay), money(p.currency, p.subtotal)]];
    if (p.discount > 0) rows.push([p.kind === 'plan' ? 'Credit for unused time' : 'Coupon discount', `- ${money(p.currency, p.discount)}`]);
    rows.push([p.currency === 'INR' ? 'GST 18%' : 'Tax', money(p.currency, p.tax)]);
    rows.push(['Total', money(p.currency, p.total)]);
    const right = 480;
    for (const [label, value] of rows) {
      const y = doc.y;
      const bold = label === 'Total';
      doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').text(label, left, y, { width: 320 });
      const after = doc.y;
      doc.text(value, right - 100, y, { width: 140, align: 'right' });
      doc.y = Math.max(after, doc.y);
      doc.moveDown(0.4);
    }
    doc.moveDown().font('Helvetica').fontSize(9).fillColor('#555').text(`Payment by ${p.provider === 'stripe' ? 'card' : 'PayPal'}. Amounts in ${p.currency}.`, left);
    doc.end();
  });
}
