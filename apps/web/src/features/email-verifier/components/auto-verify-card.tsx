import { useState } from 'react';
import { Alert, Button, Card, Group, Modal, Stack, Switch, Text, Title } from '@mantine/core';
import { IconPlugConnected } from '@tabler/icons-react';
import { getErrorMessage } from '../../../lib/api-error';
import { formatDateTime, formatNumber } from '../../../lib/format';
import { useListSync, useSetListSync } from '../api/keep-verified-api';

/**
 * A list imported from a platform: new contacts added there verified without a user action (polled), each charged
 * once, the cost per contact confirmed before it is on. Nothing shows for an uploaded list (or a role without the
 * integrations menu).
 */
export function AutoVerifyCard({ listId, fromPlatform }: { listId: string; fromPlatform: boolean }) {
  const sync = useListSync(listId, fromPlatform);
  const save = useSetListSync(listId);
  const [confirming, setConfirming] = useState(false);
  if (!fromPlatform || sync.isError || !sync.data?.from_platform) return null;
  const d = sync.data;
  const set = async (autoVerify: boolean) => {
    try {
      await save.mutateAsync(autoVerify ? { list_id: listId, auto_verify: true, accepted_cost_per_contact: d.cost_per_contact } : { list_id: listId, auto_verify: false });
      setConfirming(false);
    } catch {
      // Shown below.
    }
  };
  return (
    <Card padding="lg" data-testid="auto-verify">
      <Stack gap="sm">
        <Title order={4}>
          <Group gap={6} component="span">
            <IconPlugConnected size={18} /> New contacts on {d.platform}
          </Group>
        </Title>
        <Switch
          label={`Verify contacts added to "${d.remote_list_name}" automatically (${formatNumber(d.cost_per_contact)} credit each)`}
          checked={d.auto_verify}
          disabled={save.isPending}
          onChange={(e) => (e.currentTarget.checked ? setConfirming(true) : void set(false))}
        />
        <Text size="sm" c="dimmed">
          {d.auto_verify
            ? `The list is checked for new contacts every few minutes${d.polled_at ? `; last checked ${formatDateTime(d.polled_at)}` : ''}. ${formatNumber(d.added)} added so far; their results are written back to ${d.platform}.`
            : `Off: contacts added on ${d.platform} are not verified until you import the list again.`}
        </Text>
        {d.last_error ? <Alert color="orange" variant="light">{d.last_error}</Alert> : null}
        {save.isError ? <Alert color="red" variant="light">{getErrorMessage(save.error)}</Alert> : null}
      </Stack>
      <Modal opened={confirming} onClose={() => setConfirming(false)} title="Verify new contacts automatically" centered>
        <Stack gap="md">
          <Text size="sm">Each contact added to “{d.remote_list_name}” on {d.platform} is verified once, and its result written back.</Text>
          <Text size="lg" data-testid="auto-verify-cost">
            <b>{formatNumber(d.cost_per_contact)}</b> credit per new contact
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              Back
            </Button>
            <Button loading={save.isPending} onClick={() => void set(true)}>
              Turn on
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Card>
  );
}
