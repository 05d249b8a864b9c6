import type { TSeats } from '@verilead/contracts';
import type { TDb } from '../db/database';
import { countSeatsUsed, selectOrgSeatLimit } from './member-queries';

// Who belongs to an organisation and how many seats it has left: read by password sign-in, single sign-on (which
// creates members just in time) and the team screens alike, so it sits here below all three.

export { countSeatsUsed, selectOrgSeatLimit, selectUserWithMembership } from './member-queries';

export async function getSeats(exec: TDb, orgId: string): Promise<TSeats> {
  const [limit, used] = await Promise.all([selectOrgSeatLimit(exec, orgId), countSeatsUsed(exec, orgId)]);
  return { limit, used, available: Math.max(0, limit - used) };
}
