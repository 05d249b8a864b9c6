import { Progress, Stack, Text } from '@mantine/core';
import type { TLimitUsage } from '@verilead/contracts';
import { formatNumber } from '../../../lib/format';

/** A member limit in a table cell: used of limit with a bar, or Unlimited with what was used. */
export function LimitUsage({
  usage,
  pending,
  adjusted = false,
  label,
}: {
  usage: TLimitUsage;
  pending?: string | null;
  /** Today's remaining allowance was set directly (it resets tomorrow). */
  adjusted?: boolean;
  label: string;
}) {
  const notes = (
    <>
      {adjusted ? (
        <Text size="xs" c="orange.8" style={{ whiteSpace: 'nowrap' }}>
          Adjusted for today
        </Text>
      ) : null}
      {pending ? (
        <Text size="xs" c="indigo.7" style={{ whiteSpace: 'nowrap' }}>
          → {pending}
        </Text>
      ) : null}
    </>
  );
  if (usage.limit === null) {
    return (
      <Stack gap={2}>
        <Text size="sm">Unlimited</Text>
        <Text size="xs" c="dimmed">
          {formatNumber(usage.used)} used
        </Text>
        {notes}
      </Stack>
    );
  }
  const ratio = usage.limit === 0 ? 1 : Math.min(1, usage.used / usage.limit);
  const color = ratio >= 1 ? 'red' : ratio >= 0.8 ? 'orange' : 'indigo';
  return (
    <Stack gap={4} miw={110}>
      <Text size="sm">
        {formatNumber(usage.used)} / {formatNumber(usage.limit)}
      </Text>
      <Progress value={ratio * 100} color={color} size="sm" aria-label={`${label} used`} />
      <Text size="xs" c="dimmed">
        {formatNumber(usage.remaining ?? Math.max(0, usage.limit - usage.used))} left
      </Text>
      {notes}
    </Stack>
  );
}
