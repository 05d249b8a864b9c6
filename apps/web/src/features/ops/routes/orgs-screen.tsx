import { useState } from 'react';
import { Badge, Group, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { Link } from 'react-router';
import { PageHeader } from '../../../components/page-header';
import { formatDate, formatNumber } from '../../../lib/format';
import { useOpsOrgs } from '../api/ops-api';
import { OpsPager, OpsTable, QueryStates } from '../components/ops-parts';

const HEADERS = [{ label: 'Organisation' }, { label: 'Owner' }, { label: 'Members', right: true }, { label: 'Credits', right: true }, { label: 'Plan' }, { label: 'Created' }];

/** /ops/orgs: find an organisation by its name, a member's e-mail or an e-mail domain. */
export function OrgsScreen() {
  const [query, setQuery] = useState('');
  const [debounced] = useDebouncedValue(query.trim(), 300);
  const [page, setPage] = useState(1);
  const orgs = useOpsOrgs(debounced, page);
  const data = orgs.data;
  return (
    <Stack>
      <PageHeader title="Organisations" description="Search by organisation name, a member's e-mail or an e-mail domain." />
      <TextInput
        aria-label="Search organisations"
        placeholder="acme, jane@acme.com or acme.com"
        leftSection={<IconSearch size={16} />}
        value={query}
        onChange={(e) => {
          setQuery(e.currentTarget.value);
          setPage(1);
        }}
        maw={480}
      />
      <QueryStates query={orgs} empty={data?.items.length === 0} emptyTitle="No organisation matches" emptyDescription={debounced ? `Nothing found for “${debounced}”.` : 'No organisations yet.'} />
      {data && data.items.length > 0 ? (
        <OpsTable minWidth={640} headers={HEADERS}>
          {data.items.map((org) => (
            <Table.Tr key={org.id}>
              <Table.Td>
                <Group gap="xs" wrap="nowrap">
                  <Text component={Link} to={`/ops/orgs/${org.id}`} fw={600} c="indigo.7">
                    {org.name}
                  </Text>
                  {org.suspended ? (
                    <Badge color="red" size="sm">
                      Suspended
                    </Badge>
                  ) : null}
                </Group>
              </Table.Td>
              <Table.Td>{org.owner_email ?? '—'}</Table.Td>
              <Table.Td ta="right">{formatNumber(org.members)}</Table.Td>
              <Table.Td ta="right">{formatNumber(org.credits_balance)}</Table.Td>
              <Table.Td tt="capitalize">{org.plan_interval}</Table.Td>
              <Table.Td>{formatDate(org.created_at)}</Table.Td>
            </Table.Tr>
          ))}
        </OpsTable>
      ) : null}
      <OpsPager data={data} page={page} onChange={setPage} />
    </Stack>
  );
}
