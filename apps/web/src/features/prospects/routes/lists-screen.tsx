import { useState } from 'react';
import { Link } from 'react-router';
import { Anchor, Badge, Button, Card, Group, Pagination, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { EmptyState, ErrorState } from '../../../components/state-views';
import { LoadingScreen } from '../../../components/loading-screen';
import { PageHeader } from '../../../components/page-header';
import { getErrorMessage } from '../../../lib/api-error';
import { formatDateTime, formatNumber } from '../../../lib/format';
import { showToast } from '../../../lib/toast';
import { useListMutations, useProspectLists } from '../api/prospect-api';
import { optionLabel } from '../components/labels';

/** /prospect/lists: the member's prospect lists. */
export function ProspectListsScreen() {
  const [q, setQ] = useState('');
  const [debounced] = useDebouncedValue(q, 300);
  const [page, setPage] = useState(1);
  const lists = useProspectLists(debounced, page);
  const { remove } = useListMutations();
  return (
    <>
      <PageHeader
        title="Lists"
        description="Lists of people to enrich and export."
        actions={
          <Button component={Link} to="/prospect/people_search">
            Find people
          </Button>
        }
      />
      <Card padding="md" withBorder>
        <TextInput placeholder="Search lists" aria-label="Search lists" value={q} onChange={(e) => setQ(e.currentTarget.value)} mb="sm" maw={320} />
        {lists.isPending ? (
          <LoadingScreen />
        ) : lists.isError ? (
          <ErrorState error={lists.error} onRetry={() => void lists.refetch()} />
        ) : lists.data.items.length === 0 ? (
          <EmptyState title={debounced ? 'No list matches' : 'No lists yet'} description="Select people in the search and add them to a list." />
        ) : (
          <Stack>
            <Table striped aria-label="Prospect lists">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>State</Table.Th>
                  <Table.Th ta="right">People</Table.Th>
                  <Table.Th>Created</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {lists.data.items.map((l) => (
                  <Table.Tr key={l.id} data-testid="prospect-list-row">
                    <Table.Td>
                      <Anchor component={Link} to={`/prospect/lists/${l.id}`}>
                        {l.name}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>
                      <Badge variant="light">{optionLabel(l.state)}</Badge>
                    </Table.Td>
                    <Table.Td ta="right">{formatNumber(l.lead_count)}</Table.Td>
                    <Table.Td>
                      <Text size="xs">{formatDateTime(l.created_at)}</Text>
                    </Table.Td>
                    <Table.Td ta="right">
                      <Button
                        size="xs"
                        variant="subtle"
                        color="red"
                        disabled={l.state === 'in_progress'}
                        onClick={() =>
                          remove.mutate(l.id, {
                            onSuccess: (d) => showToast({ title: 'List removed', message: d.message, kind: 'success' }),
                            onError: (e) => showToast({ title: 'Could not remove', message: getErrorMessage(e), kind: 'error' }),
                          })
                        }
                      >
                        Remove
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <Group>
              <Pagination total={Math.max(1, Math.ceil(lists.data.total / 25))} value={page} onChange={setPage} />
            </Group>
          </Stack>
        )}
      </Card>
    </>
  );
}
