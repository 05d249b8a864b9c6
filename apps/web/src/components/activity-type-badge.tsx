import { Badge } from '@mantine/core';
import { ZJobActivityType, type TActivityType } from '@verilead/contracts';
import { humanizeKey } from '../lib/format';

const JOB_TYPES: ReadonlySet<string> = new Set(ZJobActivityType.options);

/** The type of an activity row: jobs in cyan, failures in red, account actions in indigo. */
export function ActivityTypeBadge({ type }: { type: TActivityType }) {
  const color = type === 'failed' || type === 'account_deleted' ? 'red' : JOB_TYPES.has(type) ? 'cyan' : 'indigo';
  return (
    <Badge variant="light" color={color} radius="sm">
      {humanizeKey(type)}
    </Badge>
  );
}
