import { useState } from 'react';
import { ActionIcon, Alert, Badge, Button, Card, Group, SegmentedControl, Stack, Table, Text, Textarea, TextInput, Title, Tooltip } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlus, IconSearch, IconTrash } from '@tabler/icons-react';
import { COMMA_LIST_LIMIT, type TWbListType } from '@verilead/contracts';
import { PagedTableFooter, usePaging } from '../../../components/paged-table-footer';
import { ErrorState } from '../../../components/state-views';
import { getErrorMessage } from '../../../lib/api-error';
import { formatDateTime, formatNumber } from '../../../lib/format';
import { showToast } from '../../../lib/toast';
import { useWbList, useWbListUpdate } from '../api/ev-settings-api';
import { planListAddition, type TListAddition } from '../utils/comma-list';

function describeSkipped(plan: TListAddition): string | null {
  const parts: string[] = [];
  if (plan.existing.length > 0) parts.push(`${plan.existing.length} already on the list (${plan.existing.join(', ')})`);
  if (plan.invalid.length > 0) parts.push(`${plan.invalid.length} not an address or domain (${plan.invalid.join(', ')})`);
  if (plan.overLimit.length > 0) parts.push(`${plan.overLimit.length} over the limit of ${COMMA_LIST_LIMIT} per add (${plan.overLimit.join(', ')})`);
  return parts.length > 0 ? `Skipped: ${parts.join('; ')}.` : null;
}

/** Allow / block list: add up to 10 comma-separated addresses or domains at a time, search, remove. */
export function WbListEditor() {
  const [listType, setListType] = useState<TWbListType>('block');
  const [input, setInput] = useState('');
  const [note, setNote] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const { page, limit, setPage, changeLimit } = usePaging();
  const list = useWbList({ list_type: listType, search: debounced || undefined, page, limit });
  const update = useWbListUpdate();
  const current = list.data?.items.map((item) => item.value) ?? [];
  const plan = planListAddition(input, current);

  const add = async () => {
    if (plan.add.length === 0) {
      setNote(describeSkipped(plan) ?? 'Enter at least one address or domain.');
      return;
    }
    try {
      await update.mutateAsync({ action: 'add', list_type: listType, entries: plan.add });
      showToast({ title: 'List updated', message: `${plan.add.length} added to the ${listType} list.`, kind: 'success' });
      setNote(describeSkipped(plan));
      setInput('');
    } catch (error) {
      setNote(getErrorMessage(error));
    }
  };

  const removeEntry = (value: string) =>
    update.mutate(
      { action: 'remove', list_type: listType, entries: [value] },
      { onError: (error) => showToast({ title: 'Could not remove', message: getErrorMessage(error), kind: 'error' }) },
    );

  return (
    <Card padding="lg">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" wrap="wrap">
          <Stack gap={2}>
            <Title order={4} fz={16}>
              Allow and block list
            </Title>
            <Text size="sm" c="dimmed" maw={520}>
              Addresses or domains on the allow list are always valid; those on the block list are always invalid, whatever their mail server says.
            </Text>
          </Stack>
          <SegmentedControl
            value={listType}
            onChange={(value) => {
              setListType(value === 'allow' ? 'allow' : 'block');
              setPage(1);
              setNote(null);
            }}
            data={[
              { value: 'block', label: `Block list${list.data ? ` (${formatNumber(list.data.block_count)})` : ''}` },
              { value: 'allow', label: `Allow list${list.data ? ` (${formatNumber(list.data.allow_count)})` : ''}` },
            ]}
            aria-label="Which list"
          />
        </Group>
        <Group align="flex-end" gap="sm" wrap="nowrap">
          <Textarea
            label={`Add to the ${listType} list`}
            description={`Comma-separated addresses or domains, up to ${COMMA_LIST_LIMIT} at a time. Duplicates and blanks are dropped.`}
            placeholder="competitor.com, spam@example.com"
            value={input}
            onChange={(event) => {
              setInput(event.currentTarget.value);
              setNote(null);
            }}
            autosize
            minRows={1}
            maxRows={4}
            style={{ flex: 1 }}
          />
          <Button leftSection={<IconPlus size={16} />} onClick={() => void add()} loading={update.isPending} disabled={input.trim() === ''}>
            Add {plan.add.length > 0 ? plan.add.length : ''}
          </Button>
        </Group>
        {input.trim() !== '' && plan.add.length > 0 ? (
          <Group gap={4} aria-label="Entries to add">
            {plan.add.map((entry) => (
              <Badge key={entry} variant="light" radius="sm" tt="none">
                {entry}
              </Badge>
            ))}
          </Group>
        ) : null}
        {note ? (
          <Alert color="orange" variant="light" data-testid="wb-note">
            {note}
          </Alert>
        ) : null}
        <TextInput
          label="Search entries"
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            setPage(1);
          }}
          w={260}
        />
        {list.isError ? <ErrorState error={list.error} onRetry={() => void list.refetch()} /> : null}
        {list.data ? (
          list.data.items.length === 0 ? (
            <Text size="sm" c="dimmed">
              {debounced ? 'No entries match.' : `The ${listType} list is empty.`}
            </Text>
          ) : (
            <>
              <Table verticalSpacing={6} aria-label={`${listType} list entries`}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Entry</Table.Th>
                    <Table.Th>Kind</Table.Th>
                    <Table.Th>Added</Table.Th>
                    <Table.Th />
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {list.data.items.map((item) => (
                    <Table.Tr key={item.value}>
                      <Table.Td>
                        <Text size="sm" fw={500}>
                          {item.value}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Badge variant="outline" color="gray" radius="sm">
                          {item.kind === 'email' ? 'Address' : 'Domain'}
                        </Badge>
                      </Table.Td>
                      <Table.Td>
                        <Text size="xs">{formatDateTime(item.created_at)}</Text>
                      </Table.Td>
                      <Table.Td ta="right">
                        <Tooltip label="Remove" withArrow>
                          <ActionIcon variant="subtle" color="red" onClick={() => removeEntry(item.value)} aria-label={`Remove ${item.value}`}>
                            <IconTrash size={16} />
                          </ActionIcon>
                        </Tooltip>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
              <PagedTableFooter page={page} limit={limit} total={list.data.total} onPageChange={setPage} onLimitChange={changeLimit} />
            </>
          )
        ) : null}
        <Text size="xs" c="dimmed" data-testid="wb-last-modified">
          Last modified: {list.data?.setting_last_modified_on ? formatDateTime(list.data.setting_last_modified_on) : 'never'}
        </Text>
      </Stack>
    </Card>
  );
}
