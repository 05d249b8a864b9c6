import { generateKeyPairSync, sign } from 'node:crypto';

/**
 * The ESPs' bounce webhooks as they post them (issue 32): SendGrid's Signed Event Webhook (an ECDSA P-256 key pair;
 * the verification key is base64 of the DER public key, as SendGrid's settings page shows it; each post carries
 * `X-Twilio-Email-Event-Webhook-Signature`, base64 of the DER signature over the timestamp header followed by the
 * raw body, and `X-Twilio-Email-Event-Webhook-Timestamp`) and Mailchimp's list webhook (form fields).
 */
export function createSendgridEventWebhook() {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  return {
    verificationKey: publicKey.export({ format: 'der', type: 'spki' }).toString('base64'),
    /** The raw body and headers of one post of these events, signed at `timestamp` (epoch seconds). */
    post(events: readonly Record<string, unknown>[], timestamp = Math.floor(Date.now() / 1000)) {
      const body = JSON.stringify(events);
      const signature = sign('sha256', Buffer.from(`${timestamp}${body}`), privateKey).toString('base64');
      return {
        body,
        headers: { 'content-type': 'application/json', 'x-twilio-email-event-webhook-signature': signature, 'x-twilio-email-event-webhook-timestamp': String(timestamp) },
      };
    },
  };
}

/** A SendGrid `bounce` event (type bounce, or blocked for a soft refusal). */
export function sendgridBounceEvent(email: string, opts: { type?: 'bounce' | 'blocked'; status?: string; reason?: string; timestamp?: number } = {}) {
  return {
    email,
    event: 'bounce',
    type: opts.type ?? 'bounce',
    status: opts.status ?? '5.1.1',
    reason: opts.reason ?? '550 5.1.1 The email account that you tried to reach does not exist',
    timestamp: opts.timestamp ?? Math.floor(Date.now() / 1000),
    sg_event_id: `sg-${Math.random().toString(36).slice(2)}`,
    sg_message_id: `msg-${Math.random().toString(36).slice(2)}`,
  };
}

/** Mailchimp's `cleaned` webhook post (form-encoded), as it sends one for a hard-bounced address. */
export function mailchimpCleanedPost(email: string, opts: { reason?: 'hard' | 'abuse'; firedAt?: string; listId?: string; campaignId?: string } = {}) {
  const form = new URLSearchParams({
    type: 'cleaned',
    fired_at: opts.firedAt ?? new Date().toISOString().slice(0, 19).replace('T', ' '),
    'data[list_id]': opts.listId ?? 'a6b5da1054',
    'data[campaign_id]': opts.campaignId ?? '4fjk2ma9xd',
    'data[reason]': opts.reason ?? 'hard',
    'data[email]': email,
  });
  return { body: form.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } };
}
