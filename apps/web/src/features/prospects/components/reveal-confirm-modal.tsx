import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { PROSPECT_CREDITS, type TProspectPerson } from '@verilead/contracts';
import { formatCount, formatNumber } from '../../../lib/format';

type TRevealable = Pick<TProspectPerson, 'full_name' | 'has_email' | 'email_revealed' | 'has_phone' | 'phone_revealed'>;

/** What revealing these people can cost at most: each e-mail and phone they have and the organisation has not revealed. */
export function maxRevealCost(people: readonly TRevealable[]): { emails: number; phones: number; credits: number } {
  const emails = people.filter((p) => p.has_email && !p.email_revealed).length;
  const phones = people.filter((p) => p.has_phone && !p.phone_revealed).length;
  return { emails, phones, credits: emails * PROSPECT_CREDITS.email + phones * PROSPECT_CREDITS.phone };
}

/** "2 e-mails at 1 credit and 1 phone at 2 credits": the kinds left to reveal, none named when there are none. */
function describeReveal(cost: { emails: number; phones: number }): string {
  const parts = [
    cost.emails > 0 ? `${formatCount(cost.emails, 'e-mail')} at ${formatCount(PROSPECT_CREDITS.email, 'credit')}` : null,
    cost.phones > 0 ? `${formatCount(cost.phones, 'phone')} at ${formatCount(PROSPECT_CREDITS.phone, 'credit')}` : null,
  ].filter((part): part is string => part !== null);
  return parts.length > 0 ? parts.join(' and ') : 'nothing left to reveal';
}

/** Asked before a reveal charges anything: what can be revealed and the most it costs. */
export function RevealConfirmModal({
  people,
  loading,
  onConfirm,
  onClose,
}: {
  /** The people to reveal; null when closed. */
  people: readonly TRevealable[] | null;
  loading: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const cost = maxRevealCost(people ?? []);
  const who = people?.length === 1 ? people[0]!.full_name : formatCount(people?.length ?? 0, 'person', 'people');
  return (
    <Modal opened={people !== null} onClose={onClose} title="Reveal contact data?" centered>
      <Stack gap="sm">
        <Text size="sm" data-testid="reveal-what">
          {`${who}: ${describeReveal(cost)}.`}
        </Text>
        <Group justify="space-between" wrap="nowrap">
          <Text fw={600}>At most</Text>
          <Text fw={700} fz="xl" data-testid="reveal-max-cost">
            {formatCount(cost.credits, 'credit')}
          </Text>
        </Group>
        <Text size="sm" c="dimmed">
          Only what is revealed is charged: contacts your organisation revealed before and e-mail addresses that do not check out are free.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button loading={loading} onClick={onConfirm}>
            {`Reveal for at most ${formatNumber(cost.credits)} ${cost.credits === 1 ? 'credit' : 'credits'}`}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
