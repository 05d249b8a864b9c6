import { Badge } from '@mantine/core';
import type { TVerifyList } from '@verilead/contracts';
import { LIST_STATE_LOOKS } from '../utils/verdict-format';

/** The list state (verified / not verified / in progress / cancelled); "Analysing" while the file is read. */
export function ListStateBadge({ list }: { list: Pick<TVerifyList, 'state' | 'analysis' | 'activity'> }) {
  if (list.analysis.state === 'failed') {
    return (
      <Badge color="red" variant="light" radius="sm" data-testid="list-state">
        Analysis failed
      </Badge>
    );
  }
  if (list.analysis.state === 'pending' || list.analysis.state === 'processing') {
    return (
      <Badge color="cyan" variant="light" radius="sm" data-testid="list-state">
        Analysing
      </Badge>
    );
  }
  const look = LIST_STATE_LOOKS[list.state];
  return (
    <Badge color={look.color} variant={list.state === 'verified' ? 'filled' : 'light'} radius="sm" data-testid="list-state">
      {look.label}
    </Badge>
  );
}
