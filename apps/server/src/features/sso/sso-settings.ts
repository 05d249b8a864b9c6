import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { TSsoSettings, ZSsoSettingsRequest } from '@verilead/contracts';
import type { z } from 'zod';
import { recordAudit } from '../../platform/audit/record';
import type { TDatabase, TDb } from '../../platform/db/database';
import { AppError } from '../../platform/errors/app-error';
import type { TCallerContext } from '../../platform/tenancy/context';
import { claimSsoDomains, listSsoDomainClaims } from './domain-claims';
import { selectSso, upsertSso } from './queries';

// The organisation's single sign-on settings (the settings screen's SSO section): kept with the sign-in that reads
// them, so password sign-in can ask whether SSO is enforced without a loop through the settings feature.

/** AES-256-GCM with a key derived from APP_SECRET: `v1.<iv>.<tag>.<ciphertext>` (base64url). */
function encryptSecret(appSecret: string, plain: string): string {
  const key = createHash('sha256').update(`sso-secret:${appSecret}`).digest();
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const enc = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), enc.toString('base64url')].join('.');
}

/** Reads a secret written by encryptSecret (the SSO client secret); null when it cannot be read. */
export function decryptSsoSecret(appSecret: string, stored: string): string | null {
  const [v, iv, tag, enc] = stored.split('.');
  if (v !== 'v1' || !iv || !tag || !enc) return null;
  try {
    const key = createHash('sha256').update(`sso-secret:${appSecret}`).digest();
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(enc, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

/** The stored SSO row as the API shows it (the sso feature reads it through this too). */
export function toSsoSettings(row: Awaited<ReturnType<typeof selectSso>>): Omit<TSsoSettings, 'domain_claims'> {
  const c = (row?.config ?? {}) as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
  return {
    setting_last_modified_on: row?.updatedAt.toISOString() ?? null,
    enabled: c.enabled === true,
    enforce: c.enforce === true,
    provider: (str(c.provider) as TSsoSettings['provider']) ?? null,
    domains: Array.isArray(c.domains) ? c.domains.filter((d): d is string => typeof d === 'string') : [],
    issuer_url: str(c.issuer_url),
    sso_url: str(c.sso_url),
    client_id: str(c.client_id),
    has_client_secret: !!row?.clientSecretEnc,
    has_certificate: !!row?.certificate,
    default_role: c.default_role === 'admin' ? 'admin' : 'analyst',
  };
}

export async function getSsoSettings(exec: TDb, ctx: TCallerContext): Promise<TSsoSettings> {
  return { ...toSsoSettings(await selectSso(exec, ctx.orgId)), domain_claims: await listSsoDomainClaims(exec, ctx.orgId) };
}

/** Owners and managers configure SSO for the organisation. */
export async function saveSsoSettings(
  database: TDatabase,
  appSecret: string,
  ctx: TCallerContext,
  input: z.output<typeof ZSsoSettingsRequest>,
): Promise<TSsoSettings> {
  if (ctx.role === 'analyst') throw new AppError('forbidden', 'Only the owner or a manager can configure single sign-on');
  await database.transaction(async (tx) => {
    const existing = await selectSso(tx, ctx.orgId);
    // Pending until proved by a DNS TXT record (sso/domain-claims.ts); free-mail and public suffixes refused.
    const domains = [...new Set(input.domains)];
    await claimSsoDomains(tx, ctx.orgId, domains);
    if (input.enabled && input.provider !== 'saml' && !input.client_secret && !existing?.clientSecretEnc) {
      throw new AppError('validation_failed', 'Please enter the client secret', {
        reasons: [{ field: 'client_secret', location: 'body', messages: ['Please enter the client secret'] }],
      });
    }
    if (input.enabled && input.provider === 'saml' && !input.certificate && !existing?.certificate) {
      throw new AppError('validation_failed', 'Please paste the identity provider certificate', {
        reasons: [{ field: 'certificate', location: 'body', messages: ['Please paste the identity provider certificate'] }],
      });
    }
    await upsertSso(tx, {
      orgId: ctx.orgId,
      userId: ctx.userId,
      config: {
        enabled: input.enabled,
        enforce: input.enforce,
        provider: input.provider,
        domains,
        issuer_url: input.issuer_url ?? null,
        sso_url: input.sso_url ?? null,
        client_id: input.client_id ?? null,
        default_role: input.default_role,
      },
      clientSecretEnc: input.client_secret ? encryptSecret(appSecret, input.client_secret) : undefined,
      certificate: input.certificate,
    });
    await recordAudit(tx, ctx, { action: 'sso.settings_changed', targetType: 'sso', details: { enabled: input.enabled, enforce: input.enforce, provider: input.provider, domains, client_secret_changed: Boolean(input.client_secret), certificate_changed: Boolean(input.certificate) } });
  });
  return getSsoSettings(database.db, ctx);
}
