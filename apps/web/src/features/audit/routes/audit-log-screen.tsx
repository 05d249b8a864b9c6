import { useState } from 'react';
import { Badge, Button, Card, Code, Group, Select, Table, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { AUDIT_ACTIONS, type TAuditAction } from '@verilead/contracts';
import { EmptyState, ErrorState } from '../../../components/state-views';
import { LoadingScreen } from '../../../components/loading-screen';
import { PageHeader } from '../../../components/page-header';
import { PagedTable, usePaging } from '../../../components/paged-table-footer';
import { DayRangeInput, type TDayRange } from '../../../components/day-range-input';
import { formatDateTime, toZonedDayRange } from '../../../lib/format';
import { showToast } from '../../../lib/toast';
import { downloadAuditCsv, useAuditLog, useAuditMembers, type TAuditFilters } from '../api/audit-api';


const ACTION_OPTIONS = Object.entries(AUDIT_ACTIONS).map(([value, label]) => ({ value, label }));

/** One line of what changed, for the table (the CSV carries the full details). */
function describeDetails(details: Record<string, unknown>): string {
  return Object.entries(details)
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([k, v]) => `${k.replace(/_/g, ' ')}: ${Array.isArray(v) ? v.join(', ') : typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
    .join(' · ');
}

/** The organisation's audit log (owners and Managers): who did what, filtered by action, member and dates; CSV export. */
export function AuditLogScreen() {
  const { page, limit, setPage, changeLimit } = usePaging();
  const [action, setAction] = useState<TAuditAction | null>(null);
  const [actor, setActor] = useState<string | null>(null);
  const [range, setRange] = useState<TDayRange>([null, null]);
  const [exporting, setExporting] = useState(false);
  const { from, to } = toZonedDayRange(range);
  const filters: TAuditFilters = { action: action ?? undefined, actor_id: actor ?? undefined, from, to: from ? to : undefined };
  const log = useAuditLog({ ...filters, page, limit });
  const members = useAuditMembers();
  const memberOptions = (members.data?.items ?? []).map((m) => ({ value: m.member_id, label: `${m.name} (${m.email})` }));
  const filtered = Boolean(action || actor || from);

  const exportCsv = async () => {
    setExporting(true);
    try {
      await downloadAuditCsv(filters);
    } catch (error) {
      showToast({ kind: 'error', title: 'Export failed', message: error instanceof Error ? error.message : 'Please try again.' });
    } finally {
      setExporting(false);
    }
  };

  return (
    <>
      <PageHeader title="Audit log" description="Who did what in your organisation: sign-ins, single sign-on, members, apps, webhooks and billing." />
      <Card>
        <Group justify="space-between" mb="md" wrap="wrap" gap="sm">
          <Title order={4} fz={16}>
            Entries
          </Title>
          <Group gap="sm" wrap="wrap">
            <Select
              aria-label="Action"
              placeholder="All actions"
              data={ACTION_OPTIONS}
              value={action}
              onChange={(value) => {
                setAction(value as TAuditAction | null);
                setPage(1);
              }}
              clearable
              searchable
              w={220}
            />
            <Select
              aria-label="Member"
              placeholder="All members"
              data={memberOptions}
              value={actor}
              onChange={(value) => {
                setActor(value);
                setPage(1);
              }}
              clearable
              searchable
              w={240}
            />
            <DayRangeInput
              value={range}
              onChange={(value) => {
                setRange(value);
                setPage(1);
              }}
            />
            <Button variant="light" leftSection={<IconDownload size={16} />} loading={exporting} onClick={() => void exportCsv()}>
              Export CSV
            </Button>
          </Group>
        </Group>
        {log.isPending ? <LoadingScreen minHeight={160} /> : null}
        {log.isError ? <ErrorState error={log.error} onRetry={() => void log.refetch()} /> : null}
        {log.data && log.data.total === 0 ? (
          <EmptyState
            title="No entries"
            description={filtered ? 'Nothing matches these filters. Try another action, member or date range.' : 'Sign-ins and changes to settings, members, apps and webhooks will appear here.'}
          />
        ) : null}
        {log.data && log.data.total > 0 ? (
          <PagedTable
            label="Audit log"
            minWidth={860}
            head={
              <>
                <Table.Th>Time</Table.Th>
                <Table.Th>Action</Table.Th>
                <Table.Th>Member</Table.Th>
                <Table.Th>What</Table.Th>
                <Table.Th>IP</Table.Th>
              </>
            }
            page={page}
            limit={limit}
            total={log.data.total}
            onPageChange={setPage}
            onLimitChange={changeLimit}
          >
            {log.data.items.map((entry) => (
              <Table.Tr key={entry.id} data-testid="audit-entry" data-action={entry.action}>
                <Table.Td>
                  <Text size="sm">{formatDateTime(entry.created_at)}</Text>
                </Table.Td>
                <Table.Td>
                  <Badge variant="light" color={entry.action.endsWith('failed') ? 'red' : 'indigo'}>
                    {entry.action_label}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{entry.actor_email ?? 'Unknown'}</Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">
                    {entry.target_type ? <Code>{`${entry.target_type}${entry.target_id ? ` ${entry.target_id}` : ''}`}</Code> : null} {describeDetails(entry.details)}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" c="dimmed">
                    {entry.ip ?? '—'}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </PagedTable>
        ) : null}
      </Card>
    </>
  );
}
