import { useState } from 'react';
import { Badge, Button, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { AUDIT_ACTIONS, ROLE_LABELS, type TAuditAction, type TAuditLogEntry } from '@verilead/contracts';
import { PageHeader } from '../../../components/page-header';
import { FilterSelect, PagedQueryTable, usePagedFilter, usePaging } from '../../../components/paged-table-footer';
import { DayRangeInput, type TDayRange } from '../../../components/day-range-input';
import { formatDateTime, humanizeKey, toZonedDayRange } from '../../../lib/format';
import { showToast } from '../../../lib/toast';
import { downloadAuditCsv, useAuditLog, useAuditMembers, type TAuditFilters } from '../api/audit-api';


const ACTION_OPTIONS = Object.entries(AUDIT_ACTIONS).map(([value, label]) => ({ value, label }));

/** A detail's value in words: a role by its label (Executive, not analyst). */
function describeValue(key: string, value: unknown): string {
  if (Array.isArray(value)) return value.join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  if ((key === 'from' || key === 'to' || key === 'role') && typeof value === 'string' && value in ROLE_LABELS) return ROLE_LABELS[value as keyof typeof ROLE_LABELS];
  return String(value);
}

/** One line of what changed, for the table (the CSV carries the full details); what the target line says is left out. */
function describeDetails(entry: TAuditLogEntry): string {
  // jsonb keeps keys in its own order (shorter first: "to" before "from"); a change reads from → to.
  const first = ['from', 'to'];
  const rank = (key: string) => (first.includes(key) ? first.indexOf(key) : first.length);
  return Object.entries(entry.details)
    .sort(([a], [b]) => rank(a) - rank(b))
    .filter(([, v]) => v !== undefined && v !== null)
    .filter(([k, v]) => !((k === 'name' || k === 'email') && typeof v === 'string' && entry.target_name?.includes(v)))
    .map(([k, v]) => `${k.replace(/_/g, ' ')}: ${describeValue(k, v)}`)
    .join(' · ');
}

/** The kind of an unnamed target, in words (else the type, humanised). */
const TARGET_KINDS: Record<string, string> = {
  sso: 'Single sign-on settings',
  member: 'A member',
  user: 'A member',
  organisation: 'Your organisation',
  pricing: 'Prices',
};

/** Who or what the entry is about: the server's words for it (a member's name and e-mail), else its kind; never a raw id. */
function describeTarget(entry: TAuditLogEntry): string | null {
  if (entry.target_name) return entry.target_name;
  return entry.target_type ? (TARGET_KINDS[entry.target_type] ?? humanizeKey(entry.target_type)) : null;
}

/**
 * Who acted, as the members table shows a person: their name with the e-mail beneath; the e-mail alone when the server
 * knows no name; "Deleted user" alone once their account is deleted (the server then gives no e-mail).
 */
function ActorCell({ entry }: { entry: TAuditLogEntry }) {
  if (!entry.actor_name) {
    return (
      <Text size="sm" data-testid="audit-actor">
        {entry.actor_email ?? 'Unknown'}
      </Text>
    );
  }
  return (
    <Stack gap={2} style={{ minWidth: 0 }} data-testid="audit-actor">
      <Text size="sm" fw={600} truncate data-testid="audit-actor-name">
        {entry.actor_name}
      </Text>
      {entry.actor_email ? (
        <Text size="xs" c="dimmed" truncate data-testid="audit-actor-email">
          {entry.actor_email}
        </Text>
      ) : null}
    </Stack>
  );
}

/** The organisation's audit log (owners and Managers): who did what, filtered by action, member and dates; CSV export. */
export function AuditLogScreen() {
  const paging = usePaging();
  const { page, limit, setPage } = paging;
  const [action, setAction] = usePagedFilter<TAuditAction | null>(null, setPage);
  const [actor, setActor] = usePagedFilter<string | null>(null, setPage);
  const [range, setRange] = usePagedFilter<TDayRange>([null, null], setPage);
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
            <FilterSelect label="Action" placeholder="All actions" data={ACTION_OPTIONS} value={action} onChange={setAction} searchable width={220} />
            <FilterSelect label="Member" placeholder="All members" data={memberOptions} value={actor} onChange={setActor} searchable width={240} />
            <DayRangeInput value={range} onChange={setRange} />
            <Button variant="light" leftSection={<IconDownload size={16} />} loading={exporting} onClick={() => void exportCsv()}>
              Export CSV
            </Button>
          </Group>
        </Group>
        <PagedQueryTable
          query={log}
          paging={paging}
          loadingHeight={160}
          empty={{
            title: 'No entries',
            description: filtered ? 'Nothing matches these filters. Try another action, member or date range.' : 'Sign-ins and changes to settings, members, apps and webhooks will appear here.',
          }}
          label="Audit log"
          minWidth={860}
          stackOnPhone
          head={
            <>
              <Table.Th>Time</Table.Th>
              <Table.Th>Action</Table.Th>
              <Table.Th>Member</Table.Th>
              <Table.Th>What</Table.Th>
              <Table.Th>IP</Table.Th>
            </>
          }
        >
          {(items) =>
            items.map((entry) => (
              <Table.Tr key={entry.id} data-testid="audit-entry" data-action={entry.action}>
                <Table.Td>
                  <Text size="sm">{formatDateTime(entry.created_at)}</Text>
                </Table.Td>
                <Table.Td data-label="Action">
                  <Badge variant="light" color={entry.action.endsWith('failed') ? 'red' : 'indigo'}>
                    {entry.action_label}
                  </Badge>
                </Table.Td>
                <Table.Td data-label="Member">
                  <ActorCell entry={entry} />
                </Table.Td>
                <Table.Td data-label="What">
                  {describeTarget(entry) ? (
                    <Text size="sm" fw={500} data-testid="audit-target">
                      {describeTarget(entry)}
                    </Text>
                  ) : null}
                  {describeDetails(entry) ? (
                    <Text size="xs" c="dimmed" data-testid="audit-details">
                      {describeDetails(entry)}
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td data-label="IP">
                  <Text size="sm" c="dimmed">
                    {entry.ip ?? '—'}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))
          }
        </PagedQueryTable>
      </Card>
    </>
  );
}
