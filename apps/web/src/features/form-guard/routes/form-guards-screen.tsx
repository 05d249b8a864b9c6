import { Link } from 'react-router';
import { Badge, Button, Card, Table, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { EmptyState, ErrorState } from '../../../components/state-views';
import { LoadingScreen } from '../../../components/loading-screen';
import { PageHeader } from '../../../components/page-header';
import { PagedTableFooter, usePaging } from '../../../components/paged-table-footer';
import { formatDateTime, formatNumber } from '../../../lib/format';
import { useFormGuards } from '../api/form-guard-api';

const FIELD_LABELS = { email: 'E-mail', phone: 'Phone', name: 'Name' } as const;

/** The organisation's form guards (client apps that run the widget). */
export function FormGuardsScreen() {
  const { page, limit, setPage, changeLimit } = usePaging();
  const guards = useFormGuards(page, limit);
  const create = (
    <Button component={Link} to="/form-guard/create" leftSection={<IconPlus size={16} />}>
      New form guard
    </Button>
  );
  return (
    <>
      <PageHeader title="Form Guard" description="Guard forms, block spam, validate contacts: one script checks e-mail, phone and name fields on your site." actions={create} />
      <Card>
        {guards.isPending ? (
          <LoadingScreen />
        ) : guards.isError ? (
          <ErrorState error={guards.error} onRetry={() => void guards.refetch()} />
        ) : guards.data.items.length === 0 ? (
          <EmptyState title="No form guards yet" description="Create a guard, choose its checks and paste its snippet in your site." action={create} />
        ) : (
          <>
            <Table.ScrollContainer minWidth={720}>
              <Table verticalSpacing="sm" highlightOnHover>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Name</Table.Th>
                    <Table.Th>Checks</Table.Th>
                    <Table.Th>Allowed origins</Table.Th>
                    <Table.Th>Credits used (today / total)</Table.Th>
                    <Table.Th>Created</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {guards.data.items.map((g) => (
                    <Table.Tr key={g.id}>
                      <Table.Td>
                        <Text component={Link} to={`/form-guard/${g.id}`} fw={600} c="indigo">
                          {g.name}
                        </Text>
                        {g.status === 'inactive' ? (
                          <Badge ml="xs" color="gray" variant="light">
                            Inactive
                          </Badge>
                        ) : null}
                      </Table.Td>
                      <Table.Td>
                        {(['email', 'phone', 'name'] as const)
                          .filter((f) => g.form_guard?.fields[f])
                          .map((f) => FIELD_LABELS[f])
                          .join(', ') || 'None'}
                      </Table.Td>
                      <Table.Td>{g.allowed_origins.join(', ')}</Table.Td>
                      <Table.Td>
                        {formatNumber(g.credits_used.today)} / {formatNumber(g.credits_used.life_time)}
                      </Table.Td>
                      <Table.Td>{formatDateTime(g.created_at)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <PagedTableFooter page={page} limit={limit} total={guards.data.total} onPageChange={setPage} onLimitChange={changeLimit} />
          </>
        )}
      </Card>
    </>
  );
}
