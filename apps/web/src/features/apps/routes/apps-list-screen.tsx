import { useState } from 'react';
import { Link } from 'react-router';
import { Alert, Button, Card, Group, Select, Table, Text, TextInput } from '@mantine/core';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import type { TAppStatus } from '@verilead/contracts';
import { EmptyState, ErrorState } from '../../../components/state-views';
import { LoadingScreen } from '../../../components/loading-screen';
import { PageHeader } from '../../../components/page-header';
import { PagedTableFooter, usePaging } from '../../../components/paged-table-footer';
import { formatDateTime, formatNumber } from '../../../lib/format';
import { useAppsList } from '../api/apps-api';
import { AppStatusBadge } from '../components/app-status-badge';

/** The organisation's apps: status, type, token hint, limits, usage. */
export function AppsListScreen() {
  const { page, limit, setPage, changeLimit } = usePaging();
  const [status, setStatus] = useState<TAppStatus | undefined>(undefined);
  const [search, setSearch] = useState('');
  const apps = useAppsList({ page, limit, status, search: search.trim() || undefined });

  return (
    <>
      <PageHeader
        title="Apps"
        description="Each app has its own API token, limits and, for browser apps, allowed origins."
        actions={
          <Button component={Link} to="/apps/create" leftSection={<IconPlus size={16} />}>
            Create App
          </Button>
        }
      />
      <Card>
        <Group mb="md" gap="sm">
          <TextInput
            leftSection={<IconSearch size={16} />}
            aria-label="Search apps by name"
            placeholder="Search by name"
            value={search}
            onChange={(e) => {
              setSearch(e.currentTarget.value);
              setPage(1);
            }}
          />
          <Select
            aria-label="Filter by status"
            placeholder="Status: all but removed"
            clearable
            value={status ?? null}
            data={[
              { value: 'new', label: 'Yet to Activate' },
              { value: 'active', label: 'Active' },
              { value: 'inactive', label: 'Inactive' },
              { value: 'removed', label: 'Removed' },
            ]}
            onChange={(value) => {
              setStatus((value ?? undefined) as TAppStatus | undefined);
              setPage(1);
            }}
          />
        </Group>
        {apps.isPending ? (
          <LoadingScreen />
        ) : apps.isError ? (
          <ErrorState error={apps.error} onRetry={() => void apps.refetch()} />
        ) : apps.data.items.length === 0 ? (
          <EmptyState
            title="No apps yet"
            description="Create an app to get an API token for your own systems."
            action={
              <Button component={Link} to="/apps/create" size="xs">
                Create App
              </Button>
            }
          />
        ) : (
          <>
            <Table.ScrollContainer minWidth={760}>
              <Table verticalSpacing="sm" highlightOnHover>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Name</Table.Th>
                    <Table.Th>Type</Table.Th>
                    <Table.Th>Status</Table.Th>
                    <Table.Th>Token</Table.Th>
                    <Table.Th>Rate limit</Table.Th>
                    <Table.Th>Credits used (today / total)</Table.Th>
                    <Table.Th>Created</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {apps.data.items.map((app) => (
                    <Table.Tr key={app.id}>
                      <Table.Td>
                        <Text component={Link} to={`/apps/${app.id}/edit`} fw={600} c="indigo">
                          {app.name}
                        </Text>
                      </Table.Td>
                      <Table.Td>{app.type === 'server' ? 'Server' : 'Client'}</Table.Td>
                      <Table.Td>
                        <AppStatusBadge status={app.status} />
                      </Table.Td>
                      <Table.Td>
                        <Text ff="monospace" size="sm">
                          {app.token_hint}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        {formatNumber(app.rate_limit.max)} / {app.rate_limit.window} ({app.rate_limit.scope === 'ip' ? 'per IP' : 'global'})
                      </Table.Td>
                      <Table.Td>
                        {formatNumber(app.credits_used.today)} / {formatNumber(app.credits_used.life_time)}
                      </Table.Td>
                      <Table.Td>{formatDateTime(app.created_at)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <PagedTableFooter page={page} limit={limit} total={apps.data.total} onPageChange={setPage} onLimitChange={changeLimit} />
          </>
        )}
        {apps.isFetching && !apps.isPending ? (
          <Alert variant="transparent" p={0} mt="xs">
            <Text size="xs" c="dimmed">
              Refreshing…
            </Text>
          </Alert>
        ) : null}
      </Card>
    </>
  );
}
