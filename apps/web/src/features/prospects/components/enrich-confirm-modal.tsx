import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { PROSPECT_CREDITS } from '@verilead/contracts';
import { formatNumber } from '../../../lib/format';

/**
 * The most a list enrichment can cost, asked before it starts (as Apollo does): an e-mail and a phone for every
 * person, less what the organisation revealed before (free again).
 */
export function maxEnrichCost(leads: number, revealedEmails: number, revealedPhones: number): number {
  return Math.max(0, leads - revealedEmails) * PROSPECT_CREDITS.email + Math.max(0, leads - revealedPhones) * PROSPECT_CREDITS.phone;
}

export function EnrichConfirmModal({
  opened,
  leads,
  revealedEmails,
  revealedPhones,
  loading,
  onConfirm,
  onClose,
}: {
  opened: boolean;
  leads: number;
  revealedEmails: number;
  revealedPhones: number;
  loading: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const max = maxEnrichCost(leads, revealedEmails, revealedPhones);
  return (
    <Modal opened={opened} onClose={onClose} title="Enrich this list?" centered>
      <Stack gap="sm">
        <Text size="sm">
          {`${formatNumber(leads)} people are checked for an e-mail address and a phone number. Each e-mail revealed costs ${PROSPECT_CREDITS.email} credit and each phone ${PROSPECT_CREDITS.phone} credits.`}
        </Text>
        <Group justify="space-between" wrap="nowrap">
          <Text fw={600}>At most</Text>
          <Text fw={700} fz="xl" data-testid="enrich-max-cost">
            {`${formatNumber(max)} credits`}
          </Text>
        </Group>
        <Text size="sm" c="dimmed">
          Only what is revealed is charged: contacts your organisation revealed before, people without one, and e-mail addresses that do not check out are free. You can stop it at any time.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Not now
          </Button>
          <Button loading={loading} onClick={onConfirm}>
            {`Enrich for at most ${formatNumber(max)} credits`}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
