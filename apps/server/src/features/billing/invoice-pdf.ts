import type { TPayment } from '@verilead/contracts';

export type TInvoiceParty = { orgName: string; email: string };

function money(currency: string, amount: number): string {
  return `${currency} ${amount.toFixed(2)}`;
}

/**
 * Renders an invoice (any status) or a receipt (paid) as a one-page PDF. `formatDay` writes a date-time of the payment
 * as the day the reader sees (their time zone); the UTC day when not given.
 */
export async function renderInvoicePdf(
  kind: 'invoice' | 'receipt',
  p: TPayment,
  party: TInvoiceParty,
  formatDay: (iso: string) => string = (iso) => iso.slice(0, 10),
): Promise<Buffer> {
  // pdfkit (~14 MB of fonts and code) is loaded on the first invoice, not by every server process at start.
  const { default: PDFDocument } = await import('pdfkit');
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4', margin: 56, info: { Title: `${kind === 'receipt' ? 'Receipt' : 'Invoice'} ${p.number}`, Author: 'Verilead' } });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);

    doc.fontSize(22).text('Verilead', { continued: false });
    doc.moveDown(0.3).fontSize(16).text(kind === 'receipt' ? `Receipt ${p.number}` : `Invoice ${p.number}`);
    doc.moveDown(0.5).fontSize(11);
    doc.text(`Billed to: ${party.orgName}`);
    doc.text(`E-mail: ${party.email}`);
    doc.text(`Date: ${formatDay(p.created_at)}`);
    doc.text(`Status: ${p.status === 'paid' ? `Paid on ${p.paid_at ? formatDay(p.paid_at) : ''}` : p.status.replace('_', ' ')}`);
    doc.moveDown();

    const rows: [string, string][] = [
      [`${p.credits.toLocaleString('en-US')} credits${p.bonus_credits ? ` (+${p.bonus_credits.toLocaleString('en-US')} bonus)` : ''}`, money(p.currency, p.subtotal)],
    ];
    if (p.discount > 0) rows.push([p.kind === 'plan' ? 'Credit for unused time' : 'Coupon discount', `- ${money(p.currency, p.discount)}`]);
    rows.push([p.currency === 'INR' ? 'GST 18%' : 'Tax', money(p.currency, p.tax)]);
    rows.push(['Total', money(p.currency, p.total)]);
    const left = 56;
    const right = 480;
    for (const [label, value] of rows) {
      const y = doc.y;
      const bold = label === 'Total';
      doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').text(label, left, y, { width: 360 });
      doc.text(value, right - 100, y, { width: 140, align: 'right' });
      doc.moveDown(0.4);
    }
    doc.moveDown().font('Helvetica').fontSize(9).fillColor('#555').text(`Payment by ${p.provider === 'stripe' ? 'card' : 'PayPal'}. Amounts in ${p.currency}.`, left);
    doc.end();
  });
}
