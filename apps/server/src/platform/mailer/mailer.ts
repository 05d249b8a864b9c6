import type { Transporter } from 'nodemailer';
import { z } from 'zod';
import { ZEmailAddress } from '@verilead/contracts';
import type { TDatabase } from '../db/database';
import { defineJob, type TJobDefinition, type TJobQueue } from '../jobs/jobs';
import { outbox } from './tables';
import { renderMail, ZMailTemplate } from './templates';

export const SEND_EMAIL_JOB = 'send-email';

export const ZSendEmailPayload = z.object({
  // The same address grammar the routes accept (contracts own it), so an accepted address is always mailable.
  to: ZEmailAddress,
  template: ZMailTemplate,
  vars: z.object({ name: z.string(), url: z.string(), orgName: z.string().optional() }),
});
export type TSendEmailPayload = z.infer<typeof ZSendEmailPayload>;

export type TMailLogger = { info(obj: object, msg?: string): void };

/** Delivers rendered mail: SMTP when a URL is configured, else the database outbox. */
export type TMailTransport = {
  kind: 'smtp' | 'outbox';
  deliver(mail: { jobId: string; to: string; template: string; subject: string; text: string; html: string }): Promise<void>;
  close(): void;
};

export function createMailTransport(opts: { database: TDatabase; smtpUrl?: string; from: string; logger?: TMailLogger }): TMailTransport {
  const { smtpUrl } = opts;
  if (smtpUrl) {
    // nodemailer is loaded with the first mail, not by every process at start.
    let transporter: Promise<Transporter> | null = null;
    const connect = () => (transporter ??= import('nodemailer').then((m) => m.default.createTransport(smtpUrl)));
    return {
      kind: 'smtp',
      async deliver(mail) {
        await (await connect()).sendMail({
          from: opts.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          messageId: `<${mail.jobId}@verilead.mail>`,
        });
      },
      close: () => void transporter?.then((t) => t.close()),
    };
  }
  return {
    kind: 'outbox',
    async deliver(mail) {
      await opts.database.db
        .insert(outbox)
        .values({ jobId: mail.jobId, template: mail.template, toAddress: mail.to, subject: mail.subject, text: mail.text, html: mail.html })
        .onConflictDoNothing({ target: outbox.jobId });
      opts.logger?.info({ to: mail.to, subject: mail.subject, text: mail.text }, 'mail kept in outbox');
    },
    close: () => undefined,
  };
}

/** The durable `send-email` job: renders the template and delivers it (idempotent per job id). */
export function createSendEmailJob(transport: TMailTransport): TJobDefinition {
  return defineJob({
    name: SEND_EMAIL_JOB,
    queue: 'mail',
    payload: ZSendEmailPayload,
    maxAttempts: 6,
    backoffMs: 5_000,
    async handler(payload, ctx) {
      if (await ctx.isCancelled()) return { delivered: false };
      const mail = renderMail(payload.template, payload.vars);
      await transport.deliver({ jobId: ctx.jobId, to: payload.to, template: payload.template, ...mail });
      await ctx.reportProgress(100);
      return { delivered: true, via: transport.kind };
    },
  }) as unknown as TJobDefinition;
}

export type TMailer = {
  /** Queues a mail; pass the caller's transaction so it is sent only if that commits. */
  send(payload: TSendEmailPayload, opts?: Parameters<TJobQueue['enqueue']>[2]): Promise<string>;
};

export function createMailer(queue: TJobQueue): TMailer {
  return { send: (payload, o) => queue.enqueue(SEND_EMAIL_JOB, payload, o) };
}
