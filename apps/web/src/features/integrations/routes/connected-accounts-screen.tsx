import { Anchor, Button, Card, Stack, Table } from '@mantine/core';
import { Link } from 'react-router';
import { INTEGRATION_CATALOG } from '@verilead/contracts';
import { LoadingScreen } from '../../../components/loading-screen';
import { PageHeader } from '../../../components/page-header';
import { EmptyState, ErrorState } from '../../../components/state-views';
import { formatDateTime } from '../../../lib/format';
import { useLinkedAccounts } from '../api/integrations-api';
import { DisconnectButton } from '../components/disconnect-button';
import { ImportsTable } from '../components/imports-table';
import { LeadsSourceCard } from '../components/leads-source-card';

/** Connected accounts of the organisation (owner/admin), and the imports with their progress. */
export function ConnectedAccountsScreen() {
  const linked = useLinkedAccounts();
  return (
    <>
      <PageHeader
        title="Connected accounts"
        description="The platform accounts your organisation connected."
        actions={
          <Button component={Link} to="/integrations">
            Connect an account
          </Button>
        }
      />
      <Stack gap="md">
        <Card>
          {linked.isPending ? (
            <LoadingScreen />
          ) : linked.isError ? (
            <ErrorState error={linked.error} onRetry={() => void linked.refetch()} />
          ) : linked.data.items.length === 0 ? (
            <EmptyState
              title="No connected accounts"
              description="Connect Mailchimp, HubSpot, ActiveCampaign and more to verify their lists."
              action={
                <Button component={Link} to="/integrations">
                  See the integrations
                </Button>
              }
            />
          ) : (
            <Table verticalSpacing="sm" data-testid="linked-accounts">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Platform</Table.Th>
                  <Table.Th>Account</Table.Th>
                  <Table.Th>Connected</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {linked.data.items.map((a) => (
                  <Table.Tr key={a.id}>
                    <Table.Td>
                      <Anchor component={Link} to={`/integrations/${a.integration}`}>
                        {a.name}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{INTEGRATION_CATALOG[a.integration].label}</Table.Td>
                    <Table.Td>{a.remote_account ?? '—'}</Table.Td>
                    <Table.Td>{formatDateTime(a.created_at)}</Table.Td>
                    <Table.Td ta="right">
                      <DisconnectButton account={a} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Card>
        <LeadsSourceCard />
        <ImportsTable />
      </Stack>
    </>
  );
}
