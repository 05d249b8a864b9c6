import { useState } from 'react';
import { Button, Group, Modal, SegmentedControl, Select, Stack, Text, TextInput } from '@mantine/core';
import { getErrorMessage } from '../../../lib/api-error';
import { showToast } from '../../../lib/toast';
import { useAddProfiles, useProspectLists } from '../api/prospect-api';

/** Adds the chosen people to one of the member's lists, or to a new one. */
export function AddToListModal({ personIds, opened, onClose }: { personIds: string[]; opened: boolean; onClose: () => void }) {
  const lists = useProspectLists('', 1, 100);
  const add = useAddProfiles();
  const [mode, setMode] = useState<'new' | 'existing'>('new');
  const [name, setName] = useState('');
  const [listId, setListId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const submit = () => {
    setError(null);
    if (mode === 'new' && !name.trim()) return setError('Please name the list');
    if (mode === 'existing' && !listId) return setError('Please choose a list');
    add.mutate(mode === 'new' ? { list_name: name.trim(), person_ids: personIds } : { list_id: listId!, person_ids: personIds }, {
      onSuccess: (data) => {
        showToast({ title: 'Added to list', message: `${data.added} added to "${data.list.name}"${data.already_in_list ? `, ${data.already_in_list} already there` : ''}.`, kind: 'success' });
        setName('');
        onClose();
      },
      onError: (e) => setError(getErrorMessage(e)),
    });
  };

  return (
    <Modal opened={opened} onClose={onClose} title={`Add ${personIds.length} ${personIds.length === 1 ? 'person' : 'people'} to a list`}>
      <Stack>
        <SegmentedControl
          value={mode}
          onChange={(v) => setMode(v as 'new' | 'existing')}
          data={[
            { value: 'new', label: 'New list' },
            { value: 'existing', label: 'Existing list' },
          ]}
        />
        {mode === 'new' ? (
          <TextInput label="List name" value={name} onChange={(e) => setName(e.currentTarget.value)} error={error} data-autofocus />
        ) : lists.isPending ? (
          <Text size="sm">Loading...</Text>
        ) : (
          <Select
            label="List"
            placeholder={lists.data?.items.length ? 'Choose a list' : 'You have no lists yet'}
            data={(lists.data?.items ?? []).map((l) => ({ value: l.id, label: `${l.name} (${l.lead_count})` }))}
            value={listId}
            onChange={setListId}
            error={error}
          />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={submit} loading={add.isPending}>
            Add to list
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
