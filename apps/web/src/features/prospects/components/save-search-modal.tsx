import { useState } from 'react';
import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import type { TProspectFilters } from '@verilead/contracts';
import { getErrorMessage } from '../../../lib/api-error';
import { showToast } from '../../../lib/toast';
import { useSaveSearch } from '../api/prospect-api';

export function SaveSearchModal({ filters, opened, onClose }: { filters: TProspectFilters; opened: boolean; onClose: () => void }) {
  const save = useSaveSearch();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = () => {
    setError(null);
    if (!name.trim()) return setError('Please name the search');
    save.mutate(
      { name: name.trim(), filters },
      {
        onSuccess: (s) => {
          showToast({ title: 'Search saved', message: `"${s.name}" is in your saved searches.`, kind: 'success' });
          setName('');
          onClose();
        },
        onError: (e) => setError(getErrorMessage(e)),
      },
    );
  };
  return (
    <Modal opened={opened} onClose={onClose} title="Save this search">
      <Stack>
        <TextInput label="Name" value={name} onChange={(e) => setName(e.currentTarget.value)} error={error} data-autofocus />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={submit} loading={save.isPending}>
            Save search
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
