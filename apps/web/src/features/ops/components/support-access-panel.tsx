import { Alert, Badge, Button, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useState } from 'react';
import { ErrorState } from '../../../components/state-views';
import { LoadingScreen } from '../../../components/loading-screen';
import { formatDate, formatDateTime, formatNumber } from '../../../lib/format';
import { useOpsOrgLists } from '../api/ops-api';

/**
 * Support access: whether the owner lets support see the organisation's lists and results, until when; the lists
 * themselves only while it is active (the server checks it on every call and logs each view).
 */
export function SupportAccessPanel({ orgId, until }: { orgId: string; until: string | null }) {
  const [show, setShow] = useState(false);
  const lists = useOpsOrgLists(orgId, show && until !== null);
  return (
    <Card>
      <Stack>
        <Group justify="space-between">
          <Title order={4} fz={16}>
            Support access
          </Title>
          {until ? <Badge color="green">Granted until {formatDateTime(until)}</Badge> : <Badge color="gray">Not granted</Badge>}
        </Group>
        {!until ? (
          <Alert icon={<IconLock size={18} />} color="gray" variant="light">
            Lists, verification results and contact data stay hidden. The organisation's owner can grant support access for a limited time in their Settings.
          </Alert>
        ) : !show ? (
          <Group>
            <Button variant="light" onClick={() => setShow(true)}>
              View the organisation's lists (logged)
            </Button>
          </Group>
        ) : null}
        {show && lists.isPending ? <LoadingScreen /> : null}
        {show && lists.isError ? <ErrorState error={lists.error} onRetry={() => void lists.refetch()} /> : null}
        {show && lists.data?.items.length === 0 ? (
          <Text size="sm" c="dimmed">
            No lists.
          </Text>
        ) : null}
        {show && lists.data && lists.data.items.length > 0 ? (
          <Table.ScrollContainer minWidth={520}>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>List</Table.Th>
                  <Table.Th>State</Table.Th>
                  <Table.Th ta="right">Rows</Table.Th>
                  <Table.Th>Results</Table.Th>
                  <Table.Th>Uploaded</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {lists.data.items.map((list) => (
                  <Table.Tr key={list.id}>
                    <Table.Td>{list.name}</Table.Td>
                    <Table.Td>{list.state}</Table.Td>
                    <Table.Td ta="right">{formatNumber(list.rows)}</Table.Td>
                    <Table.Td>
                      {Object.entries(list.results)
                        .filter(([, n]) => n > 0)
                        .map(([k, n]) => `${k}: ${formatNumber(n)}`)
                        .join(', ') || '—'}
                    </Table.Td>
                    <Table.Td>{formatDate(list.created_at)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        ) : null}
      </Stack>
    </Card>
  );
}
