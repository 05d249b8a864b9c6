import { useState } from 'react';
import { Alert, Button, Group, Modal, MultiSelect, Select, Stack, TextInput } from '@mantine/core';
import { WEBHOOK_EVENTS, type TWebhook, type TWebhookEvent } from '@verilead/contracts';
import { getErrorMessage } from '../../../lib/api-error';
import { useSaveWebhook } from '../api/developer-api';

/** Create or edit a webhook: name, URL, events, status. */
export function WebhookFormModal({ webhook, opened, onClose }: { webhook: TWebhook | null; opened: boolean; onClose: () => void }) {
  const save = useSaveWebhook();
  const [name, setName] = useState(webhook?.name ?? '');
  const [url, setUrl] = useState(webhook?.url ?? '');
  const [events, setEvents] = useState<TWebhookEvent[]>(webhook?.events ?? ['email_verifier.bulk.completed']);
  const [status, setStatus] = useState(webhook?.status ?? 'active');
  const [error, setError] = useState<string | null>(null);
  const submit = async () => {
    if (!name.trim() || !/^https?:\/\/\S+$/i.test(url.trim()) || events.length === 0) {
      setError('Enter a name, an http(s) URL and at least one event');
      return;
    }
    setError(null);
    try {
      await save.mutateAsync({ webhook_id: webhook?.id, name: name.trim(), url: url.trim(), events, status });
      onClose();
    } catch (err) {
      setError(getErrorMessage(err));
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title={webhook ? 'Edit webhook' : 'Create webhook'} size="lg">
      <Stack gap="md">
        <TextInput label="Name" required value={name} onChange={(e) => setName(e.currentTarget.value)} />
        <TextInput label="Destination URL" required placeholder="https://hooks.example.com/verilead" value={url} onChange={(e) => setUrl(e.currentTarget.value)} />
        <MultiSelect label="Events" data={[...WEBHOOK_EVENTS]} value={events} onChange={(v) => setEvents(v as TWebhookEvent[])} />
        <Select
          label="Status"
          allowDeselect={false}
          value={status}
          data={[
            { value: 'active', label: 'Active' },
            { value: 'inactive', label: 'Inactive' },
          ]}
          onChange={(v) => setStatus(v === 'inactive' ? 'inactive' : 'active')}
        />
        {error ? (
          <Alert color="red" variant="light" role="alert">
            {error}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => void submit()} loading={save.isPending}>
            Save webhook
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
