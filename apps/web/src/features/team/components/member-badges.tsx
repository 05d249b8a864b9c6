import { Badge } from '@mantine/core';
import { ROLE_LABELS, type TMemberStatus, type TRole } from '@verilead/contracts';

const ROLE_COLORS: Record<TRole, string> = { owner: 'violet', admin: 'indigo', analyst: 'cyan' };
type TShownStatus = TMemberStatus | 'invited';
const STATUS_COLORS: Record<TShownStatus, string> = { active: 'teal', inactive: 'orange', removed: 'red', invited: 'gray' };
export const STATUS_LABELS: Record<TMemberStatus, string> = { active: 'Active', inactive: 'Inactive', removed: 'Removed' };

/** Owner, Manager or Executive. */
export function RoleBadge({ role }: { role: TRole }) {
  return (
    <Badge variant="light" color={ROLE_COLORS[role]} radius="sm">
      {ROLE_LABELS[role]}
    </Badge>
  );
}

/** The one status a member shows: an active member who has not set a password yet is Invited. */
export function describeMemberStatus(member: { status: TMemberStatus; has_password: boolean }): TShownStatus {
  return member.status === 'active' && !member.has_password ? 'invited' : member.status;
}

/** Active, Invited, Inactive or Removed (one badge, never cut short). */
export function MemberStatusBadge({ member }: { member: { status: TMemberStatus; has_password: boolean } }) {
  const shown = describeMemberStatus(member);
  return (
    <Badge variant="dot" color={STATUS_COLORS[shown]} radius="sm" style={{ overflow: 'visible' }}>
      {shown === 'invited' ? 'Invited' : STATUS_LABELS[shown]}
    </Badge>
  );
}
