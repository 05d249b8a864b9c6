import { Badge } from '@mantine/core';
import { ROLE_LABELS, type TMemberStatus, type TRole } from '@verilead/contracts';

const ROLE_COLORS: Record<TRole, string> = { owner: 'violet', admin: 'indigo', analyst: 'cyan' };
const STATUS_COLORS: Record<TMemberStatus, string> = { active: 'teal', inactive: 'orange', removed: 'red' };
export const STATUS_LABELS: Record<TMemberStatus, string> = { active: 'Active', inactive: 'Inactive', removed: 'Removed' };

/** Owner, Manager or Executive. */
export function RoleBadge({ role }: { role: TRole }) {
  return (
    <Badge variant="light" color={ROLE_COLORS[role]} radius="sm">
      {ROLE_LABELS[role]}
    </Badge>
  );
}

/** active / inactive / removed. */
export function MemberStatusBadge({ status }: { status: TMemberStatus }) {
  return (
    <Badge variant="dot" color={STATUS_COLORS[status]} radius="sm">
      {STATUS_LABELS[status]}
    </Badge>
  );
}
