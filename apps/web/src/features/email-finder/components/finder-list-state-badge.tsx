import { Badge } from '@mantine/core';
import type { TFinderList } from '@verilead/contracts';
import { FINDER_LIST_STATE_LOOKS } from '../utils/finder-format';

/** processed / not processed / in progress / cancelled. */
export function FinderListStateBadge({ list }: { list: Pick<TFinderList, 'state'> }) {
  const look = FINDER_LIST_STATE_LOOKS[list.state];
  return (
    <Badge color={look.color} variant={list.state === 'processed' ? 'filled' : 'light'} radius="sm" data-testid="list-state">
      {look.label}
    </Badge>
  );
}
