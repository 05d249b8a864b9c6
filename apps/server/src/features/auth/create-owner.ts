import { z } from 'zod';
import { getPublicBaseUrl } from '../../platform/http/public-url';
import { ZEmail, ZPersonName } from '@verilead/contracts';
import { issueOneTimeToken, TOKEN_TTL_MS } from '../../platform/auth/one-time-tokens';
import type { TConfig } from '../../config';
import type { TDatabase } from '../../platform/db/database';
import { AppError } from '../../platform/errors/app-error';
import { recordActivity } from '../activities';
import { selectUserWithMembership } from '../../platform/tenancy/members';
import { insertMembership, insertOrganisation, insertUser } from './queries';

/** The operator's command `npm run ops -- create-owner --email … --org … [--name …]`. */
export const ZCreateOwnerInput = z.object({
  email: ZEmail,
  org: z.string().trim().min(1, 'Please name the organisation').max(120),
  name: ZPersonName.optional(),
});
export type TCreateOwnerInput = z.input<typeof ZCreateOwnerInput>;

export type TCreatedOwner = { userId: string; orgId: string; email: string; url: string; expiresAt: string };

/**
 * Creates an organisation and its owner without a password (no credits: a production installation grants none) and
 * answers a one-time setup link: single use, expiring (the invitation's `setup_password` token), it sets the password.
 * This is how a production installation gets its first owner when sign-up is not used.
 */
export async function createOwnerAccount(deps: { database: TDatabase; config: TConfig }, raw: TCreateOwnerInput): Promise<TCreatedOwner> {
  const parsed = ZCreateOwnerInput.safeParse(raw);
  if (!parsed.success) throw new AppError('validation_failed', parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  const input = parsed.data;
  if (await selectUserWithMembership(deps.database.db, input.email)) {
    throw new AppError('email_already_registered', `An account with the e-mail ${input.email} exists already.`);
  }
  return deps.database.transaction(async (tx) => {
    const org = await insertOrganisation(tx, { name: input.org });
    const user = await insertUser(tx, { email: input.email, name: input.name ?? input.email.split('@')[0]! });
    await insertMembership(tx, { orgId: org.id, userId: user.id, role: 'owner' });
    const token = await issueOneTimeToken(tx, user.id, 'setup_password');
    await recordActivity(tx, { orgId: org.id, userId: user.id, type: 'signup', description: 'Created by the operator' });
    return {
      userId: user.id,
      orgId: org.id,
      email: user.email,
      url: `${getPublicBaseUrl(deps.config)}/setup_password?token=${encodeURIComponent(token)}`,
      expiresAt: new Date(Date.now() + TOKEN_TTL_MS.setup_password).toISOString(),
    };
  });
}
