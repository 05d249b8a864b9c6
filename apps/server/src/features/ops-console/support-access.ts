import type { TSupportAccess } from '@verilead/contracts';
import { recordAudit } from '../../platform/audit/record';
import type { TDatabase } from '../../platform/db/database';
import { AppError } from '../../platform/errors/app-error';
import type { TOperatorCaller } from './guard';
import { selectOrganisation, selectOrgLists, setSupportAccessUntil } from './org-queries';
import { recordOperatorAction } from './record-action';

type TDeps = { database: TDatabase; clock: () => Date };

async function readUntil(deps: TDeps, orgId: string): Promise<Date | null> {
  const org = await selectOrganisation(deps.database.db, orgId);
  if (!org) throw new AppError('not_found', 'Organisation not found');
  return org.support_access_until ? new Date(org.support_access_until) : null;
}

function describe(until: Date | null, now: Date): TSupportAccess {
  const active = until !== null && until > now;
  return { until: active ? until.toISOString() : null, active };
}

/** The owner's view: whether Verilead support may see the organisation's lists and results, and until when. */
export async function getSupportAccess(deps: TDeps, orgId: string): Promise<TSupportAccess> {
  return describe(await readUntil(deps, orgId), deps.clock());
}

/** The owner grants support access for `hours` (recorded in the audit log), or ends it (hours null). */
export async function setSupportAccess(deps: TDeps, caller: { orgId: string; userId: string }, hours: number | null): Promise<TSupportAccess> {
  const until = hours === null ? null : new Date(deps.clock().getTime() + hours * 3600_000);
  return deps.database.transaction(async (tx) => {
    await setSupportAccessUntil(tx, caller.orgId, until);
    await recordAudit(
      tx,
      { orgId: caller.orgId, userId: caller.userId },
      { action: until ? 'support_access.granted' : 'support_access.revoked', targetType: 'organisation', targetId: caller.orgId, details: until ? { until: until.toISOString(), hours } : {} },
    );
    return describe(until, deps.clock());
  });
}

/**
 * The one check every console view of a customer's data goes through: answers 403 with a readable reason unless the
 * owner's grant is active now.
 */
export async function assertSupportAccess(deps: TDeps, orgId: string): Promise<void> {
  const access = describe(await readUntil(deps, orgId), deps.clock());
  if (!access.active) {
    throw new AppError('forbidden', "The organisation's owner has not granted support access (or it has ended): its lists and results stay hidden.");
  }
}

/** The organisation's bulk lists with their result counts: only while support access is granted; recorded. */
export async function viewOrgLists(deps: TDeps, operator: TOperatorCaller, orgId: string) {
  await assertSupportAccess(deps, orgId);
  const rows = await selectOrgLists(deps.database.db, orgId);
  await deps.database.transaction((tx) => recordOperatorAction(tx, operator, { action: 'operator.lists_viewed', orgId, targetType: 'organisation', targetId: orgId, details: { lists: rows.length } }));
  return {
    items: rows.map((r) => ({
      id: r.id,
      name: r.name,
      state: r.state,
      rows: r.rows,
      created_at: new Date(r.created_at).toISOString(),
      results: Object.fromEntries(Object.entries(r.counters ?? {}).filter((e): e is [string, number] => typeof e[1] === 'number')),
    })),
  };
}
