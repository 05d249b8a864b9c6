import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectRows } from '../../platform/db/database';
import { createTestApp, type TTestApp } from '../../test/test-app';

function hasPdfToText(): boolean {
  try {
    execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe("invoice and receipt dates follow the reader's time zone", () => {
  let t: TTestApp;
  let owner: { token: string; userId: string; orgId: string };
  let paymentId: string;
  let dir: string;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.createOwner('dates@invoice.test');
    dir = mkdtempSync(join(tmpdir(), 'invoice-date-'));
    // Created 18:40 UTC on 9 March (the 10th in Kolkata, the 9th in New York), paid 03:30 UTC on the 10th (the 9th in New York).
    const rows = await selectRows<{ id: string }>(
      t.db.db,
      sql`insert into payments (org_id, user_id, provider, credits, currency, subtotal_minor, total_minor, status, created_at, paid_at)
          values (${owner.orgId}, ${owner.userId}, 'stripe', 1000, 'USD', 1000, 1000, 'paid', '2026-03-09T18:40:00Z', '2026-03-10T03:30:00Z') returning id`,
    );
    paymentId = rows[0]!.id;
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function pdfText(kind: 'invoice' | 'receipt', timezone: string): Promise<string> {
    expect((await t.call({ method: 'POST', url: '/api/v1/user/timezone/edit', token: owner.token, payload: { timezone } })).status).toBe(200);
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/${kind}/download?id=${paymentId}`, headers: { authorization: `Bearer ${owner.token}` } });
    expect(res.statusCode).toBe(200);
    const file = join(dir, `${kind}-${timezone.replace('/', '-')}.pdf`);
    writeFileSync(file, res.rawPayload);
    return execFileSync('pdftotext', ['-layout', file, '-']).toString();
  }

  it.runIf(hasPdfToText())('prints the date created and the date paid as days of the user setting', async () => {
    const kolkata = await pdfText('receipt', 'Asia/Kolkata');
    expect(kolkata).toContain('Date: 2026-03-10');
    expect(kolkata).toContain('Paid on 2026-03-10');
    const newYork = await pdfText('invoice', 'America/New_York');
    expect(newYork).toContain('Date: 2026-03-09');
    expect(newYork).toContain('Paid on 2026-03-09');
    const utc = await pdfText('invoice', 'UTC');
    expect(utc).toContain('Date: 2026-03-09');
    expect(utc).toContain('Paid on 2026-03-10');
  });
});
