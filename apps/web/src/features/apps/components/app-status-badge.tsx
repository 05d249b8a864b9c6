import { Badge } from '@mantine/core';
import { APP_STATUS_LABELS, type TAppStatus } from '@verilead/contracts';

const COLORS: Record<TAppStatus, string> = { new: 'yellow', active: 'teal', inactive: 'gray', removed: 'red' };

export function AppStatusBadge({ status }: { status: TAppStatus }) {
  return (
    <Badge color={COLORS[status]} variant="light">
      {APP_STATUS_LABELS[status]}
    </Badge>
  );
}
