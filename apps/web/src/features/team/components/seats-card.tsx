import { Button, Card, Group, Progress, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconArmchair2 } from '@tabler/icons-react';
import type { TSeats } from '@verilead/contracts';
import { formatNumber } from '../../../lib/format';

/** Member seats of the plan: used / plan.user_create_limit, with the way to ask for more. */
export function SeatsCard({ seats, onRequestSeats }: { seats: TSeats; onRequestSeats: () => void }) {
  const ratio = seats.limit === 0 ? 1 : Math.min(1, seats.used / seats.limit);
  const full = seats.available === 0;
  return (
    <Card h="100%" data-testid="seats-card">
      <Stack gap="sm" justify="space-between" h="100%">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Stack gap={4}>
            <Text size="xs" c="dimmed" tt="uppercase" fw={600} style={{ letterSpacing: 0.5 }}>
              Member seats
            </Text>
            <Text fz={28} fw={700} lh={1.1} data-testid="seats-used">
              {formatNumber(seats.used)} / {formatNumber(seats.limit)}
            </Text>
            <Text size="xs" c={full ? 'orange.8' : 'dimmed'}>
              {full ? 'All seats are in use' : `${formatNumber(seats.available)} seat${seats.available === 1 ? '' : 's'} free`} · owner not
              counted
            </Text>
          </Stack>
          <ThemeIcon variant="light" color={full ? 'orange' : 'indigo'} size={44} radius="md">
            <IconArmchair2 size={22} />
          </ThemeIcon>
        </Group>
        <Progress value={ratio * 100} color={full ? 'orange' : 'indigo'} size="sm" aria-label="Seats used" />
        <Group>
          <Button variant="light" size="xs" onClick={onRequestSeats}>
            Request more seats
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
