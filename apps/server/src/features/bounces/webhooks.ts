/**
 * ESP bounce webhooks. Each organisation gives each ESP a secret address (`/api/v1/public/bounces/<token>`), shown
 * once, when it is made (created or rotated): only the token's SHA-256 is stored, and a post finds its webhook by it.
 * - SendGrid's Event Webhook posts a JSON array of events; `bounce` (type bounce: hard unless its status is 4.x.x;
 *   type blocked: soft), `dropped` for a "Bounced Address" (hard) and `deferred` (soft) are kept. With a verification
 *   key stored, every post must carry a valid ECDSA signature (`X-Twilio-Email-Event-Webhook-Signature` over the
 *   `…-Timestamp` header followed by the raw body, P-256 with SHA-256, the key as SendGrid shows it: base64 of the
 *   DER public key), else it is refused.
 * - Mailchimp's list webhook posts form fields; a `cleaned` event whose `data[reason]` is `hard` is a hard bounce
 *   (`abuse` is a complaint, not a bounce). Mailchimp checks the address with a GET first: answered 200.
 */
import { createPublicKey, randomBytes, verify, type KeyObject } from 'node:crypto';
import type { TBounceWebhook, TBounceWebhookSet, TBounceWebhookSetRequest } from '@verilead/contracts';
import { recordAudit } from '../../platform/audit/record';
import { hashToken } from '../../platform/auth/tokens';
import type { TDeps } from '../../platform/deps';
import { AppError } from '../../platform/errors/app-error';
import { getPublicBaseUrl } from '../../platform/http/public-url';
import type { TCallerContext } from '../../platform/tenancy/context';
import { kindOfCode, parseBounceDate } from './classify';
import { CONFIRM_CREDIT_BACKS_JOB } from './confirm-credit-backs';
import { countWebhookEvents, selectWebhookByTokenHash, selectWebhooks, upsertWebhook, type TWebhookRow } from './queries';
import { recordBounces, type TBounceEvent } from './record-bounces';

export const SENDGRID_SIGNATURE_HEADER = 'x-twilio-email-event-webhook-signature';
export const SENDGRID_TIMESTAMP_HEADER = 'x-twilio-email-event-webhook-timestamp';
/** Events one post may carry (SendGrid batches up to a few thousand). */
const MAX_EVENTS = 10_000;

function readKey(text: string): KeyObject {
  const compact = text.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
  return createPublicKey({ key: Buffer.from(compact, 'base64'), format: 'der', type: 'spki' });
}

function toView(w: TWebhookRow): TBounceWebhook {
  return { platform: w.platform, signed: Boolean(w.verificationKey), events: w.events, created_at: w.createdAt.toISOString() };
}

/** GET /bounces/webhooks: the webhooks without their addresses (stored hashed: a new one is made to see one). */
export async function listBounceWebhooks(deps: Pick<TDeps, 'database'>, ctx: TCallerContext) {
  return { items: (await selectWebhooks(deps.database.db, ctx.orgId)).map(toView) };
}

/**
 * POST /bounces/webhooks: the ESP's webhook (created once; a new address with `rotate`), and SendGrid's key. The
 * address is answered when this call made it (its hash is the one stored), else `url` is null.
 */
export async function setBounceWebhook(deps: Pick<TDeps, 'database' | 'config'>, ctx: TCallerContext, body: TBounceWebhookSetRequest): Promise<TBounceWebhookSet> {
  const token = randomBytes(24).toString('base64url');
  const tokenHash = hashToken(token);
  let key: string | null | undefined;
  if (body.verification_key !== undefined) {
    if (body.platform !== 'sendgrid' && body.verification_key) {
      const message = 'Only SendGrid signs its events with a verification key';
      throw new AppError('validation_failed', message, { reasons: [{ field: 'verification_key', location: 'body', messages: [message] }] });
    }
    key = body.verification_key.replace(/\s+/g, '') || null;
    if (key) {
      try {
        readKey(key);
      } catch {
        const message = 'This is not an ECDSA public key: paste the verification key SendGrid shows for the signed Event Webhook';
        throw new AppError('validation_failed', message, { reasons: [{ field: 'verification_key', location: 'body', messages: [message] }] });
      }
    }
  }
  const row = await deps.database.transaction(async (tx) => {
    const saved = await upsertWebhook(tx, {
      orgId: ctx.orgId,
      platform: body.platform,
      tokenHash,
      verificationKey: key,
      createdBy: ctx.userId,
      rotate: body.rotate === true,
    });
    // The address and the key are secrets: the audit log says what changed, never them.
    const details = { platform: body.platform, rotated: body.rotate === true, signed: Boolean(saved.verificationKey) };
    await recordAudit(tx, ctx, { action: 'bounce_webhook.changed', targetType: 'bounce_webhook', targetId: saved.id, details });
    return saved;
  });
  const made = row.tokenHash === tokenHash;
  return { ...toView(row), url: made ? `${getPublicBaseUrl(deps.config)}/api/v1/public/bounces/${token}` : null };
}

/** True when SendGrid's signature of the raw body checks out with the stored key. */
export function checkSendgridSignature(keyText: string, rawBody: string, signature: string, timestamp: string): boolean {
  if (!signature || !timestamp) return false;
  try {
    return verify('sha256', Buffer.from(timestamp + rawBody, 'utf8'), readKey(keyText), Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}

type TSendgridEvent = { email?: unknown; event?: unknown; type?: unknown; status?: unknown; reason?: unknown; response?: unknown; timestamp?: unknown };

const str = (v: unknown) => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');

/** SendGrid's events as bounces (the others ignored). */
export function readSendgridEvents(body: unknown, now: Date): TBounceEvent[] {
  if (!Array.isArray(body)) throw new AppError('malformed_request', 'SendGrid posts a JSON array of events');
  if (body.length > MAX_EVENTS) throw new AppError('payload_too_large', `At most ${MAX_EVENTS} events per post`);
  return (body as TSendgridEvent[]).flatMap((e): TBounceEvent[] => {
    if (typeof e !== 'object' || e === null) return [];
    const email = str(e.email).toLowerCase();
    const event = str(e.event);
    const status = str(e.status);
    const reason = str(e.reason) || str(e.response) || null;
    let kind: TBounceEvent['kind'] | null = null;
    if (event === 'bounce') kind = str(e.type) === 'blocked' ? 'soft' : (kindOfCode(status) ?? 'hard');
    else if (event === 'dropped' && /bounced address/i.test(reason ?? '')) kind = 'hard';
    else if (event === 'deferred') kind = 'soft';
    if (!kind || !email.includes('@')) return [];
    const at = parseBounceDate(str(e.timestamp), now) ?? now;
    return [{ email, kind, source: 'sendgrid', bouncedAt: at, reason, code: status || null, reportId: null }];
  });
}

/** Mailchimp's form fields as a bounce (a `cleaned` event for a hard bounce), or none. */
export function readMailchimpEvent(fields: Record<string, string>, now: Date): TBounceEvent[] {
  if (fields.type !== 'cleaned' || fields['data[reason]'] !== 'hard') return [];
  const email = (fields['data[email]'] ?? '').trim().toLowerCase();
  if (!email.includes('@')) return [];
  const at = parseBounceDate(fields.fired_at ?? '', now) ?? now;
  const campaign = fields['data[campaign_id]'];
  return [{ email, kind: 'hard', source: 'mailchimp', bouncedAt: at, reason: `cleaned (hard bounce)${campaign ? `, campaign ${campaign}` : ''}`, code: null, reportId: null }];
}

/** The webhook behind a token (404 when none: the address is the secret). */
export async function requireWebhook(deps: Pick<TDeps, 'database'>, token: string): Promise<TWebhookRow> {
  const hook = token.length <= 100 ? await selectWebhookByTokenHash(deps.database.db, hashToken(token)) : undefined;
  if (!hook) throw new AppError('not_found', 'No bounce webhook at this address');
  return hook;
}

/** POST /public/bounces/:token: an ESP's post, recorded in one transaction with its claims (their re-check queued in it). */
export async function receiveBounceWebhook(
  deps: Pick<TDeps, 'database' | 'clock' | 'config' | 'queue'>,
  token: string,
  post: { rawBody: string; contentType: string; headers: Record<string, string | string[] | undefined> },
) {
  const hook = await requireWebhook(deps, token);
  const now = deps.clock();
  let events: TBounceEvent[];
  if (hook.platform === 'sendgrid') {
    if (hook.verificationKey) {
      const header = (name: string) => String(post.headers[name] ?? '');
      if (!checkSendgridSignature(hook.verificationKey, post.rawBody, header(SENDGRID_SIGNATURE_HEADER), header(SENDGRID_TIMESTAMP_HEADER))) {
        throw new AppError('unauthorized', 'The event webhook signature is not valid');
      }
    }
    let body: unknown;
    try {
      body = JSON.parse(post.rawBody);
    } catch {
      throw new AppError('malformed_request', 'The body is not JSON');
    }
    events = readSendgridEvents(body, now);
  } else {
    events = readMailchimpEvent(Object.fromEntries(new URLSearchParams(post.rawBody)), now);
  }
  const totals = await deps.database.transaction(async (tx) => {
    const t = await recordBounces(tx, hook.orgId, events, deps.config.bounceGuaranteeDays, now);
    await countWebhookEvents(tx, hook.id, events.length);
    if (t.claimed > 0) await deps.queue.enqueue(CONFIRM_CREDIT_BACKS_JOB, { orgId: hook.orgId }, { tx, orgId: hook.orgId });
    return t;
  });
  return { received: events.length, hard: totals.hard, soft: totals.soft, claimed: totals.claimed };
}
