import { useState } from 'react';
import { Alert, Button, Card, Group, Loader, Modal, NumberInput, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconCalendarRepeat } from '@tabler/icons-react';
import { REVERIFY_MAX_AGE_DAYS, REVERIFY_PERIOD_DAYS, type TKeepVerifiedData, type TReverifyPeriod } from '@verilead/contracts';
import { ErrorState } from '../../../components/state-views';
import { getErrorMessage } from '../../../lib/api-error';
import { formatDate, formatNumber } from '../../../lib/format';
import { useKeepVerified, useSetKeepVerified } from '../api/keep-verified-api';
import { ReverifyRuns } from './reverify-runs';

const PERIODS = [
  { value: 'off', label: 'Off' },
  { value: 'monthly', label: 'Monthly' },
  { value: 'quarterly', label: 'Quarterly' },
];

/** The choice on screen: the saved one until the person changes it. */
function useChoice(saved: TKeepVerifiedData | undefined) {
  const [period, setPeriod] = useState<TReverifyPeriod | null>(null);
  const [age, setAge] = useState<number | null>(null);
  const schedule = period ?? saved?.schedule ?? 'off';
  const defaultAge = schedule === 'off' ? 30 : REVERIFY_PERIOD_DAYS[schedule];
  const ageDays = age ?? (period === null && saved && saved.schedule !== 'off' ? saved.age_days : defaultAge);
  const changed = saved !== undefined && (schedule !== saved.schedule || (schedule !== 'off' && ageDays !== saved.age_days));
  const reset = () => {
    setPeriod(null);
    setAge(null);
  };
  return { schedule, ageDays, changed, setPeriod, setAge, reset };
}

/** "Keep verified": a schedule that re-checks only the addresses whose result is older than the chosen age, its cost per run shown and confirmed. */
export function KeepVerifiedCard({ listId }: { listId: string }) {
  const saved = useKeepVerified(listId, null);
  const choice = useChoice(saved.data);
  const validAge = Number.isInteger(choice.ageDays) && choice.ageDays >= 1 && choice.ageDays <= REVERIFY_MAX_AGE_DAYS;
  const priced = useKeepVerified(listId, choice.changed && choice.schedule !== 'off' && validAge ? { schedule: choice.schedule, ageDays: choice.ageDays } : null);
  const save = useSetKeepVerified(listId);
  const [confirming, setConfirming] = useState(false);

  if (saved.isPending) {
    return (
      <Card padding="lg" data-testid="keep-verified">
        <Group gap="xs">
          <Loader size="sm" />
          <Text size="sm">Loading the schedule…</Text>
        </Group>
      </Card>
    );
  }
  if (saved.isError) return <ErrorState error={saved.error} title="Could not load the schedule" onRetry={() => void saved.refetch()} />;
  const data = saved.data;
  const shown = priced.data ?? data;
  const on = choice.schedule !== 'off';

  const apply = async () => {
    try {
      if (choice.schedule === 'off') await save.mutateAsync({ list_id: listId, schedule: 'off' });
      else await save.mutateAsync({ list_id: listId, schedule: choice.schedule, age_days: choice.ageDays, accepted_cost_per_run: shown.cost_per_run });
      setConfirming(false);
      choice.reset();
    } catch {
      // Shown below (a 409 names the new cost: the figures refresh).
      void priced.refetch();
    }
  };

  return (
    <Card padding="lg" data-testid="keep-verified">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" wrap="wrap">
          <Stack gap={2}>
            <Title order={4}>
              <Group gap={6} component="span">
                <IconCalendarRepeat size={18} /> Keep verified
              </Group>
            </Title>
            <Text size="sm" c="dimmed">
              Re-check, on a schedule, only the addresses whose result has grown old. Nothing else is charged.
            </Text>
          </Stack>
          {data.schedule !== 'off' ? (
            <Text size="sm" data-testid="keep-verified-next">
              Next run <b>{formatDate(data.next_run_at)}</b>
            </Text>
          ) : null}
        </Group>

        {!data.available ? (
          <Text size="sm" c="dimmed" data-testid="keep-verified-unavailable">
            {data.unavailable_reason}
          </Text>
        ) : (
          <>
            {data.skipped_reason ? (
              <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />} title="The last run did not happen" data-testid="keep-verified-skipped">
                {data.skipped_reason}
              </Alert>
            ) : null}
            <Group align="flex-end" gap="md" wrap="wrap">
              <SegmentedControl aria-label="Schedule" data={PERIODS} value={choice.schedule} onChange={(v) => choice.setPeriod(v as TReverifyPeriod)} />
              {on ? (
                <NumberInput
                  label="Re-check results older than (days)"
                  min={1}
                  max={REVERIFY_MAX_AGE_DAYS}
                  allowDecimal={false}
                  value={choice.ageDays}
                  onChange={(v) => choice.setAge(typeof v === 'number' ? v : Number.NaN)}
                  error={validAge ? null : `Between 1 and ${REVERIFY_MAX_AGE_DAYS} days`}
                  w={240}
                />
              ) : null}
            </Group>
            {on ? (
              <Text size="sm" data-testid="keep-verified-cost">
                Up to <b>{formatNumber(shown.cost_per_run)}</b> credits per run (1 per address re-checked) · first run {formatDate(shown.next_run_at)} · your balance{' '}
                {formatNumber(shown.credits_balance)}
                {priced.isFetching ? <Loader size={12} ml={6} /> : null}
              </Text>
            ) : null}
            {on && shown.cost_per_run > shown.credits_balance ? (
              <Text size="sm" c="orange">
                Your balance does not cover a run: a run that cannot be paid in full is skipped, never charged in part.
              </Text>
            ) : null}
            {save.isError && !confirming ? (
              <Alert color="red" variant="light" role="alert">
                {getErrorMessage(save.error)}
              </Alert>
            ) : null}
            {choice.changed ? (
              <Group gap="sm">
                {on ? (
                  <Button onClick={() => setConfirming(true)} disabled={!validAge || priced.isFetching}>
                    {data.schedule === 'off' ? 'Turn on' : 'Save schedule'}
                  </Button>
                ) : (
                  <Button color="red" variant="light" loading={save.isPending} onClick={() => void apply()}>
                    Turn off
                  </Button>
                )}
                <Button variant="subtle" onClick={choice.reset}>
                  Cancel
                </Button>
              </Group>
            ) : null}
          </>
        )}
        <ReverifyRuns listId={listId} data={data} />
      </Stack>

      <Modal opened={confirming} onClose={() => setConfirming(false)} title="Keep this list verified" centered>
        <Stack gap="md">
          <Text size="sm">
            Every {choice.schedule === 'quarterly' ? 'three months' : 'month'}, the addresses whose result is older than {choice.ageDays} days are re-checked.
          </Text>
          <Text size="lg" data-testid="keep-verified-confirm-cost">
            Up to <b>{formatNumber(shown.cost_per_run)}</b> credits per run
          </Text>
          <Text size="sm" c="dimmed">
            First run {formatDate(shown.next_run_at)}. A run the organisation cannot pay in full is skipped and you are told why.
          </Text>
          {save.isError ? (
            <Alert color="red" variant="light" role="alert">
              {getErrorMessage(save.error)}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              Back
            </Button>
            <Button loading={save.isPending} onClick={() => void apply()}>
              Confirm {formatNumber(shown.cost_per_run)} credits per run
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Card>
  );
}
