import { useState } from 'react';
import { Anchor, Badge, Button, Card, Group, Menu, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconDots } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import type { TOpsMember } from '@verilead/contracts';
import { LoadingScreen } from '../../../components/loading-screen';
import { NameAndEmail } from '../../../components/list-table-row';
import { PageHeader } from '../../../components/page-header';
import { ErrorState } from '../../../components/state-views';
import { formatDateTime, formatNumber } from '../../../lib/format';
import { useOpsOrg } from '../api/ops-api';
import { ConfirmAction, type TPendingAction } from '../components/confirm-action';
import { CreditsDialog } from '../components/credits-dialog';
import { SupportAccessPanel } from '../components/support-access-panel';
import { OpsTable } from '../components/ops-parts';

const MEMBER_HEADERS = [{ label: 'Member' }, { label: 'Role' }, { label: 'Status' }, { label: 'Last sign-in' }, { label: 'Sessions', right: true }, { label: '' }];

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Card role="group" aria-label={label}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fz={22} fw={700} data-testid="figure-value">
        {value}
      </Text>
    </Card>
  );
}

function memberActions(member: TOpsMember): TPendingAction[] {
  const base = `/users/${member.user_id}`;
  return [
    member.suspended
      ? { path: `${base}/restore`, title: `Restore ${member.email}?`, description: 'They can sign in again, and their sessions and API key work again.', confirmLabel: 'Restore user', color: 'green', askReason: true }
      : { path: `${base}/suspend`, title: `Suspend ${member.email}?`, description: 'They cannot sign in, and their sessions and API key are refused with a message saying so, until restored.', confirmLabel: 'Suspend user', color: 'red', askReason: true },
    { path: `${base}/reset_sessions`, title: `Sign ${member.email} out everywhere?`, description: 'Every open session ends; they sign in again.', confirmLabel: 'Reset sessions', color: 'orange', askReason: false },
  ];
}

/** /ops/orgs/:orgId: an organisation for support: plan, credits, members and their actions, support access. */
export function OrgDetailScreen() {
  const { orgId = '' } = useParams();
  const org = useOpsOrg(orgId);
  const [creditsOpen, setCreditsOpen] = useState(false);
  const [pending, setPending] = useState<TPendingAction | null>(null);
  if (org.isPending) return <LoadingScreen />;
  if (org.isError) return <ErrorState error={org.error} onRetry={() => void org.refetch()} />;
  const data = org.data;
  const orgAction: TPendingAction = data.suspended
    ? { path: '/restore', title: `Restore ${data.name}?`, description: 'Its members can sign in and work again.', confirmLabel: 'Restore organisation', color: 'green', askReason: true }
    : { path: '/suspend', title: `Suspend ${data.name}?`, description: 'Nobody of the organisation can sign in or use a session or API key until restored.', confirmLabel: 'Suspend organisation', color: 'red', askReason: true };
  return (
    <Stack>
      <Anchor component={Link} to="/ops/orgs" size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} /> Organisations
        </Group>
      </Anchor>
      <PageHeader
        title={data.name}
        description={`Owner ${data.owner_email ?? '—'} · created ${formatDateTime(data.created_at)}`}
        actions={
          <>
            {data.suspended ? <Badge color="red">Suspended</Badge> : null}
            <Button onClick={() => setCreditsOpen(true)}>Adjust credits</Button>
            <Button variant="default" color={data.suspended ? 'green' : 'red'} onClick={() => setPending(orgAction)}>
              {data.suspended ? 'Restore organisation' : 'Suspend organisation'}
            </Button>
          </>
        }
      />
      <SimpleGrid cols={{ base: 2, md: 4 }}>
        <Figure label="Credits" value={formatNumber(data.credits_balance)} />
        <Figure label="Plan" value={data.plan_interval} />
        <Figure label="Lists, 30 days" value={formatNumber(data.activity_30d.verify_lists + data.activity_30d.finder_lists)} />
        <Figure label="Credits used, 30 days" value={formatNumber(data.activity_30d.credits_used)} />
      </SimpleGrid>
      <Title order={4} fz={16}>
        Members ({data.members_list.length})
      </Title>
      <OpsTable minWidth={600} headers={MEMBER_HEADERS}>
        {data.members_list.map((member) => (
          <Table.Tr key={member.user_id}>
            <Table.Td>
              <NameAndEmail name={member.name} email={member.email} />
            </Table.Td>
            <Table.Td tt="capitalize">{member.role}</Table.Td>
            <Table.Td>{member.suspended ? <Badge color="red">Suspended</Badge> : <Badge color={member.status === 'active' ? 'green' : 'gray'}>{member.status}</Badge>}</Table.Td>
            <Table.Td>{member.last_sign_in_at ? formatDateTime(member.last_sign_in_at) : '—'}</Table.Td>
            <Table.Td ta="right">{member.open_sessions}</Table.Td>
            <Table.Td>
              <Menu position="bottom-end">
                <Menu.Target>
                  <Button variant="subtle" size="xs" aria-label={`Actions for ${member.email}`}>
                    <IconDots size={16} />
                  </Button>
                </Menu.Target>
                <Menu.Dropdown>
                  {memberActions(member).map((action) => (
                    <Menu.Item key={action.path} color={action.color} onClick={() => setPending(action)}>
                      {action.confirmLabel}
                    </Menu.Item>
                  ))}
                </Menu.Dropdown>
              </Menu>
            </Table.Td>
          </Table.Tr>
        ))}
      </OpsTable>
      <SupportAccessPanel orgId={orgId} until={data.support_access_until} />
      {data.recent_adjustments.length > 0 ? (
        <Card>
          <Title order={4} fz={16} mb="sm">
            Recent credit adjustments
          </Title>
          <Stack gap={6}>
            {data.recent_adjustments.map((a) => (
              <Text key={a.id} size="sm">
                {formatDateTime(a.created_at)} · <b>{a.amount > 0 ? `+${formatNumber(a.amount)}` : formatNumber(a.amount)}</b> · {a.reason} · balance {formatNumber(a.balance_after)} · {a.operator_email ?? '—'}
              </Text>
            ))}
          </Stack>
        </Card>
      ) : null}
      <CreditsDialog orgId={orgId} orgName={data.name} balance={data.credits_balance} opened={creditsOpen} onClose={() => setCreditsOpen(false)} />
      <ConfirmAction orgId={orgId} action={pending} onClose={() => setPending(null)} />
    </Stack>
  );
}
