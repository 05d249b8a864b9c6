import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { createTestDb, type TTestDb } from '../../test/test-db';
import { createTestQueue } from '../../test/test-queue';
import { createMailer, createMailTransport, createSendEmailJob } from './mailer';
import { outbox } from './tables';
import { eq } from 'drizzle-orm';

type TReceived = { from: string; to: string[]; data: string };

describe('mailer', () => {
  let t: TTestDb;
  let smtp: SMTPServer;
  let port = 0;
  const received: TReceived[] = [];
  let rejectNext = 0;

  beforeAll(async () => {
    t = await createTestDb();
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          if (rejectNext > 0) {
            rejectNext -= 1;
            const err = Object.assign(new Error('try again later'), { responseCode: 451 });
            return callback(err);
          }
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            data: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
    port = (smtp.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    await t.dispose();
  });

  it('delivers over SMTP through the durable job, retrying after a failure', async () => {
    const transport = createMailTransport({ database: t, smtpUrl: `smtp://127.0.0.1:${port}?ignoreTLS=true`, from: 'Verilead <no-reply@verilead.test>' });
    const queue = createTestQueue(t, [createSendEmailJob(transport)]);
    const mailer = createMailer(queue);
    rejectNext = 1;
    const id = await mailer.send({ to: 'ada@example.test', template: 'password_reset', vars: { name: 'Ada', url: 'http://localhost:3000/resetpassword?token=abc123' } }, { backoffMs: 0 });
    await queue.runUntilIdle({ includeDelayed: true });
    const job = await queue.get(id);
    expect(job?.state).toBe('completed');
    expect(job?.attempts).toBe(2);
    expect(received).toHaveLength(1);
    expect(received[0]?.to).toEqual(['ada@example.test']);
    expect(received[0]?.from).toBe('no-reply@verilead.test');
    expect(received[0]?.data).toContain('Subject: Reset your password');
    expect(received[0]?.data).toContain('resetpassword?token=3Dabc123') // quoted-printable;
    transport.close();
  });

  it('keeps mail in the outbox when no SMTP URL is set', async () => {
    const lines: string[] = [];
    const transport = createMailTransport({ database: t, from: 'x@verilead.test', logger: { info: (_o, msg) => lines.push(msg ?? '') } });
    const queue = createTestQueue(t, [createSendEmailJob(transport)]);
    const id = await createMailer(queue).send({ to: 'bob@example.test', template: 'email_verification', vars: { name: 'Bob <b>', url: 'http://x/emailverification?token=t1' } });
    await queue.runUntilIdle();
    const rows = await t.db.select().from(outbox).where(eq(outbox.jobId, id));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.subject).toBe('Verify your e-mail address');
    expect(rows[0]?.html).toContain('Bob &lt;b&gt;');
    expect(rows[0]?.text).toContain('emailverification?token=t1');
    expect(lines).toEqual(['mail kept in outbox']);
  });
});
