import { useState } from 'react';
import { Alert, Button, Group, Modal, SegmentedControl, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCoins, IconShieldCheck } from '@tabler/icons-react';
import type { TVerificationMode, TVerifyList } from '@verilead/contracts';
import { getCreditRefusalTitle, getErrorMessage } from '../../../lib/api-error';
import { formatCount, formatNumber } from '../../../lib/format';
import { useSessionStore } from '../../../lib/session-store';
import { useStartListVerify, useVerifierPreferences } from '../api/email-verifier-api';

/** What the list skips for free and why the charge can be lower; skipped kinds with none are not named. */
function skippedNote(counts: { duplicate: number; syntax_error: number }): string {
  const skipped = [
    counts.duplicate > 0 ? formatCount(counts.duplicate, 'duplicate') : null,
    counts.syntax_error > 0 ? formatCount(counts.syntax_error, 'syntax error') : null,
  ].filter((part): part is string => part !== null);
  const total = counts.duplicate + counts.syntax_error;
  const lead = skipped.length === 0 ? '' : `${skipped.join(' and ')} ${total === 1 ? 'is skipped and costs' : 'are skipped and cost'} nothing. `;
  return `${lead}Unknown results are not billed, so the final charge can be lower.`;
}

function Figure({ label, value, testId }: { label: string; value: number; testId: string }) {
  return (
    <Stack gap={0} p="sm" style={{ border: '1px solid var(--mantine-color-gray-3)', borderRadius: 8 }}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fz={22} fw={700} data-testid={testId}>
        {formatNumber(value)}
      </Text>
    </Stack>
  );
}

/** Before verifying: the billable addresses and the credits it costs; short of credits → the 402 flow. */
export function VerifyListModal({ list, onClose, onStarted }: { list: TVerifyList | null; onClose: () => void; onStarted?: (list: TVerifyList) => void }) {
  const credits = useSessionStore((state) => state.credits) ?? 0;
  const start = useStartListVerify();
  const preferences = useVerifierPreferences(list !== null);
  const ev = preferences.data?.ev_settings;
  const [mode, setMode] = useState<TVerificationMode | null>(null);
  const chosenMode = mode ?? ev?.default_email_verify_mode ?? 'highest_accuracy';
  const required = list?.cost.credits_required ?? 0;
  const short = required > credits;

  const close = () => {
    start.reset();
    setMode(null);
    onClose();
  };

  const confirm = async () => {
    if (!list) return;
    try {
      await start.mutateAsync(ev?.can_show_email_verify_mode ? { list_id: list.id, mode: chosenMode } : { list_id: list.id });
      onStarted?.(list);
      close();
    } catch {
      // Shown below; a 402 also toasts and redirects to pricing.
    }
  };

  return (
    <Modal opened={list !== null} onClose={close} title={list ? `Verify ${list.name}` : 'Verify list'} centered size="md">
      {list ? (
        <Stack gap="md">
          <SimpleGrid cols={2} spacing="sm">
            <Figure label="Addresses to verify" value={list.counts.remaining} testId="verify-remaining" />
            <Figure label="Billable (at most)" value={list.cost.billable_estimate} testId="verify-billable" />
            <Figure label="Credits required" value={required} testId="verify-credits-required" />
            <Figure label="Your credits" value={credits} testId="verify-credits-available" />
          </SimpleGrid>
          <Text size="sm" c="dimmed" data-testid="verify-skipped-note">
            {skippedNote(list.counts)}
          </Text>
          {ev?.can_show_email_verify_mode ? (
            <Stack gap={4}>
              <Text size="sm" fw={500}>
                Verification mode
              </Text>
              <SegmentedControl
                aria-label="Verification mode"
                value={chosenMode}
                onChange={(value) => setMode(value === 'fastest_turnaround' ? 'fastest_turnaround' : 'highest_accuracy')}
                data={[
                  { value: 'highest_accuracy', label: 'Highest accuracy' },
                  { value: 'fastest_turnaround', label: 'Fastest turnaround' },
                ]}
              />
            </Stack>
          ) : null}
          {short ? (
            <Alert color="orange" variant="light" icon={<IconCoins size={18} />} title="Not enough credits">
              This list needs {formatNumber(required)} credits and you have {formatNumber(credits)}. Add {formatNumber(required - credits)} credits to verify it all.
            </Alert>
          ) : null}
          {start.isError ? (
            <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} role="alert" title={getCreditRefusalTitle(start.error) ?? 'Could not start'}>
              {getErrorMessage(start.error)}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button leftSection={<IconShieldCheck size={16} />} onClick={() => void confirm()} loading={start.isPending}>
              Verify {formatCount(list.counts.remaining, 'address', 'addresses')}
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
