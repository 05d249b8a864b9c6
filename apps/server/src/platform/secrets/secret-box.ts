import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Secrets at rest (webhook signing secrets, integration credentials): AES-256-GCM with a key derived from APP_SECRET
 * (HKDF-SHA256), one key per purpose.
 */
export type TSecretPurpose = 'webhook-secrets' | 'integration-credentials';

function deriveKey(appSecret: string, purpose: TSecretPurpose): Buffer {
  return Buffer.from(hkdfSync('sha256', appSecret, 'verilead', purpose, 32));
}

/** Encrypts with AES-256-GCM: `v1.<iv>.<tag>.<ciphertext>` (base64url). */
export function encryptSecret(appSecret: string, plain: string, purpose: TSecretPurpose = 'webhook-secrets'): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', deriveKey(appSecret, purpose), iv);
  const enc = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), enc.toString('base64url')].join('.');
}

export function decryptSecret(appSecret: string, box: string, purpose: TSecretPurpose = 'webhook-secrets'): string {
  const [v, iv, tag, enc] = box.split('.');
  if (v !== 'v1' || !iv || !tag || !enc) throw new Error('Unreadable secret');
  const decipher = createDecipheriv('aes-256-gcm', deriveKey(appSecret, purpose), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(enc, 'base64url')), decipher.final()]).toString('utf8');
}

/** `sha256=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>`: the signature header's value. */
export function signPayload(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** What a receiver does: recompute and compare in constant time. */
export function verifySignature(secret: string, timestamp: string, body: string, signature: string): boolean {
  const expected = Buffer.from(signPayload(secret, timestamp, body));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
