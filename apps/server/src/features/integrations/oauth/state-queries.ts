import { and, eq, gt, isNull } from 'drizzle-orm';
import type { TDb } from '../../../platform/db/database';
import { integrationOauthStates } from '../tables';

// The SQL of pending OAuth connections (state.ts).

/** Records a pending connection; answers its id. */
export async function insertOAuthState(exec: TDb, row: typeof integrationOauthStates.$inferInsert): Promise<string> {
  const [created] = await exec.insert(integrationOauthStates).values(row).returning({ id: integrationOauthStates.id });
  return created!.id;
}

/** Marks a pending connection of this org, user and platform used, if unused and unexpired at `now`; answers its name and region (null otherwise). */
export async function useOAuthState(exec: TDb, p: { id: string; orgId: string; userId: string; platform: string; now: Date }): Promise<{ name: string; region: string | null } | null> {
  const rows = await exec
    .update(integrationOauthStates)
    .set({ usedAt: p.now })
    .where(
      and(
        eq(integrationOauthStates.id, p.id),
        eq(integrationOauthStates.orgId, p.orgId),
        eq(integrationOauthStates.userId, p.userId),
        eq(integrationOauthStates.platform, p.platform),
        isNull(integrationOauthStates.usedAt),
        gt(integrationOauthStates.expiresAt, p.now),
      ),
    )
    .returning({ name: integrationOauthStates.name, region: integrationOauthStates.region });
  return rows[0] ?? null;
}
