import { useState } from 'react';
import { Alert, Button, Card, Group, Select, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { INTEGRATION_CATALOG, type TIntegration, type TRemoteList } from '@verilead/contracts';
import { LoadingScreen } from '../../../components/loading-screen';
import { EmptyState, ErrorState } from '../../../components/state-views';
import { useAccountLists, usePlatformAccounts } from '../api/integrations-api';
import { DisconnectButton } from '../components/disconnect-button';
import { ImportsTable } from '../components/imports-table';
import { IntegrationPage } from '../components/integration-page';
import { VerifyListModal } from '../components/verify-list-modal';

function RemoteLists({ platform, accountId }: { platform: TIntegration; accountId: string }) {
  const lists = useAccountLists(platform, accountId);
  const [picked, setPicked] = useState<TRemoteList | null>(null);
  if (lists.isPending) return <LoadingScreen />;
  if (lists.isError) return <ErrorState error={lists.error} onRetry={() => void lists.refetch()} title="Could not read the lists" />;
  if (lists.data.lists.length === 0) return <EmptyState title="No lists" description={`This ${INTEGRATION_CATALOG[platform].label} account has no lists yet.`} />;
  return (
    <>
      <Table verticalSpacing="sm" data-testid="remote-lists">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>List</Table.Th>
            <Table.Th>Contacts</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {lists.data.lists.map((l) => (
            <Table.Tr key={l.id}>
              <Table.Td>{l.name}</Table.Td>
              <Table.Td>{l.member_count === null ? '—' : l.member_count.toLocaleString()}</Table.Td>
              <Table.Td ta="right">
                <Button size="xs" onClick={() => setPicked(l)} aria-label={`Verify ${l.name}`}>
                  Verify
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <VerifyListModal platform={platform} accountId={accountId} list={picked} onClose={() => setPicked(null)} />
    </>
  );
}

function PlatformView({ platform }: { platform: TIntegration }) {
  const info = INTEGRATION_CATALOG[platform];
  const accounts = usePlatformAccounts(platform);
  const [chosen, setChosen] = useState<string | null>(null);
  const items = accounts.data?.items ?? [];
  const accountId = chosen && items.some((a) => a.id === chosen) ? chosen : (items[0]?.id ?? null);
  const account = items.find((a) => a.id === accountId) ?? null;
  return (
    <Stack gap="md">
      <Card>
        <Group justify="space-between" mb="sm">
          <Title order={4} fz={16}>
            Lists
          </Title>
          {info.available ? (
            <Button size="xs" variant="light" component={Link} to={`/integrations/${platform}/connect`}>
              Connect another account
            </Button>
          ) : null}
        </Group>
        {accounts.isPending ? (
          <LoadingScreen />
        ) : accounts.isError ? (
          <ErrorState error={accounts.error} onRetry={() => void accounts.refetch()} />
        ) : items.length === 0 ? (
          info.available ? (
            <EmptyState
              title={`No ${info.label} account connected`}
              action={
                <Button component={Link} to={`/integrations/${platform}/connect`}>
                  Connect {info.label}
                </Button>
              }
            />
          ) : (
            <Alert color="gray" variant="light">
              {info.unavailable_reason}
            </Alert>
          )
        ) : (
          <Stack gap="sm">
            <Group align="flex-end">
              <Select label="Account" allowDeselect={false} value={accountId} data={items.map((a) => ({ value: a.id, label: a.name }))} onChange={setChosen} w={280} />
              {account ? (
                <Text size="sm" c="dimmed" pb={6}>
                  {account.remote_account}
                </Text>
              ) : null}
              {account ? <DisconnectButton account={account} onDone={() => setChosen(null)} /> : null}
            </Group>
            {accountId ? <RemoteLists platform={platform} accountId={accountId} /> : null}
          </Stack>
        )}
      </Card>
      <ImportsTable platform={platform} />
    </Stack>
  );
}

/** One integration (owner/admin): its accounts, their lists, verify a list; the imports of this platform. */
export function IntegrationScreen() {
  return <IntegrationPage title={(info) => info.label}>{(platform) => <PlatformView platform={platform} />}</IntegrationPage>;
}
