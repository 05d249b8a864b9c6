import { useEffect, useRef, useState } from 'react';
import { Badge, Button, Card, Checkbox, Group, ScrollArea, SegmentedControl, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconSearch, IconTrash, IconUserPlus } from '@tabler/icons-react';
import {
  MEMBER_ROLE_FILTERS,
  ROLE_LABELS,
  ZMemberStatusFilter,
  type TMember,
  type TMemberListData,
  type TMemberRoleFilter,
  type TMemberStatusFilter,
} from '@verilead/contracts';
import { EmptyState, ErrorState } from '../../../components/state-views';
import { LoadingScreen } from '../../../components/loading-screen';
import { PagedTableFooter } from '../../../components/paged-table-footer';
import { STACK_ON_PHONE } from '../../../components/stacked-table';
import { getErrorMessage } from '../../../lib/api-error';
import { useSessionStore } from '../../../lib/session-store';
import { formatDateTime, formatNumber } from '../../../lib/format';
import { showToast } from '../../../lib/toast';
import { useBulkRemoveMembers } from '../api/team-api';
import { describeBulkRemoveOutcome, splitBulkSelection } from '../utils/bulk-remove';
import { describePendingDailyLimit } from '../utils/limit-rules';
import { getPageSelection, togglePageSelection, toggleRowSelection } from '../utils/row-selection';
import { LimitUsage } from './limit-usage';
import { MemberStatusBadge, RoleBadge, STATUS_LABELS } from './member-badges';
import { MemberRowActions } from './member-row-actions';

export type TMemberFilters = { role: TMemberRoleFilter; status: TMemberStatusFilter; search: string; page: number; limit: number };

const STATUS_OPTIONS = ZMemberStatusFilter.options.map((status) => ({
  value: status,
  label: status === 'all' ? 'All statuses' : STATUS_LABELS[status],
}));

const NO_WRAP = { whiteSpace: 'nowrap' } as const;

function roleFilterLabel(role: TMemberRoleFilter): string {
  return role === 'all' ? 'All' : ROLE_LABELS[role];
}

function MemberCell({ member, isSelf }: { member: TMember; isSelf: boolean }) {
  return (
    <Stack gap={2} style={{ minWidth: 0 }}>
      <Group gap={6} wrap="nowrap">
        <Text size="sm" fw={600} truncate>
          {member.name}
        </Text>
        {isSelf ? (
          <Badge size="xs" variant="light" color="gray">
            You
          </Badge>
        ) : null}
      </Group>
      <Text size="xs" c="dimmed" truncate>
        {member.email}
      </Text>
    </Stack>
  );
}

/** The members table: role tabs, status filter, search, selection with bulk remove, row actions, paging. */
export function MembersPanel({
  filters,
  onFiltersChange,
  query,
  onAdd,
  onEdit,
}: {
  filters: TMemberFilters;
  onFiltersChange: (next: TMemberFilters) => void;
  query: { data: TMemberListData | undefined; isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown };
  onAdd: () => void;
  onEdit: (member: TMember) => void;
}) {
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [search, setSearch] = useState(filters.search);
  const known = useRef(new Map<string, TMember>());
  const bulkRemove = useBulkRemoveMembers();
  const selfId = useSessionStore((state) => state.id);
  const data = query.data;
  const pageIds = data?.items.map((member) => member.member_id) ?? [];
  const pageSelection = getPageSelection(selected, pageIds);

  useEffect(() => {
    for (const member of data?.items ?? []) known.current.set(member.member_id, member);
  }, [data]);

  useEffect(() => {
    const timer = setTimeout(() => {
      if (search.trim() !== filters.search) onFiltersChange({ ...filters, search: search.trim(), page: 1 });
    }, 300);
    return () => clearTimeout(timer);
  }, [search, filters, onFiltersChange]);

  const runBulkRemove = async (ids: string[]) => {
    try {
      const result = await bulkRemove.mutateAsync({ member_ids: ids });
      for (const toast of describeBulkRemoveOutcome(result)) showToast(toast);
      setSelected(new Set());
    } catch (error) {
      showToast({ title: 'Nothing removed', message: getErrorMessage(error), kind: 'error' });
    }
  };

  const confirmBulkRemove = () => {
    const ids = [...selected];
    const members = ids.map((id) => known.current.get(id)).filter((member): member is TMember => member !== undefined);
    const { blocked } = splitBulkSelection(members);
    modals.openConfirmModal({
      title: `Remove ${ids.length} selected member${ids.length === 1 ? '' : 's'}?`,
      children: (
        <Stack gap="xs">
          <Text size="sm">Removed members can no longer log in and their seats are freed. You can reactivate them later.</Text>
          {blocked.length > 0 ? (
            <Text size="sm" c="orange.8">
              {blocked.length} of them cannot be removed (the owner or already removed) and will be kept.
            </Text>
          ) : null}
        </Stack>
      ),
      labels: { confirm: 'Remove members', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => void runBulkRemove(ids),
    });
  };

  const counts = data?.counts;
  const roleOptions = MEMBER_ROLE_FILTERS.map((role) => ({
    value: role,
    label: counts ? `${roleFilterLabel(role)} (${formatNumber(counts[role])})` : roleFilterLabel(role),
  }));
  const isFiltered = filters.role !== 'all' || filters.status !== 'all' || filters.search !== '';

  return (
    <Card>
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap" gap="sm">
          <SegmentedControl
            aria-label="Role filter"
            value={filters.role}
            onChange={(value) => onFiltersChange({ ...filters, role: value as TMemberRoleFilter, page: 1 })}
            data={roleOptions}
            visibleFrom="sm"
          />
          <Group gap="sm" wrap="wrap">
            {/* On a phone the row of roles is wider than the screen (it was cut after "Manager"): a select instead. */}
            <Select
              aria-label="Role"
              data={roleOptions}
              value={filters.role}
              onChange={(value) => value && onFiltersChange({ ...filters, role: value as TMemberRoleFilter, page: 1 })}
              allowDeselect={false}
              w={150}
              hiddenFrom="sm"
            />
            <Select
              aria-label="Status filter"
              data={STATUS_OPTIONS}
              value={filters.status}
              onChange={(value) => value && onFiltersChange({ ...filters, status: value as TMemberStatusFilter, page: 1 })}
              allowDeselect={false}
              w={150}
            />
            <TextInput
              aria-label="Search members"
              placeholder="Search name or email"
              leftSection={<IconSearch size={16} />}
              value={search}
              onChange={(event) => setSearch(event.currentTarget.value)}
              w={240}
            />
          </Group>
        </Group>

        {selected.size > 0 ? (
          <Group justify="space-between" px="md" py={8} bg="indigo.0" style={{ borderRadius: 'var(--mantine-radius-md)' }}>
            <Text size="sm" fw={600} c="indigo.9">
              {selected.size} selected
            </Text>
            <Group gap="xs">
              <Button variant="subtle" size="xs" onClick={() => setSelected(new Set())}>
                Clear selection
              </Button>
              <Button color="red" size="xs" leftSection={<IconTrash size={14} />} onClick={confirmBulkRemove} loading={bulkRemove.isPending}>
                Remove selected
              </Button>
            </Group>
          </Group>
        ) : null}

        {query.isPending ? <LoadingScreen minHeight={200} /> : null}
        {query.isError ? <ErrorState error={query.error} onRetry={() => void query.refetch()} /> : null}
        {data && data.total === 0 ? (
          <EmptyState
            title={isFiltered ? 'No members match' : 'No members yet'}
            description={isFiltered ? 'Try another role, status or search.' : 'Add Managers and Executives to share your credits.'}
            action={
              isFiltered ? null : (
                <Button size="xs" leftSection={<IconUserPlus size={14} />} onClick={onAdd} mt="xs">
                  Add member
                </Button>
              )
            }
          />
        ) : null}
        {data && data.total > 0 ? (
          <>
            <ScrollArea>
              <Table verticalSpacing="sm" highlightOnHover miw={900} aria-label="Members" className={STACK_ON_PHONE}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th w={40} data-phone-keep>
                      <Checkbox
                        aria-label="Select all on this page"
                        checked={pageSelection === 'all'}
                        indeterminate={pageSelection === 'some'}
                        onChange={() => setSelected((current) => togglePageSelection(current, pageIds))}
                      />
                    </Table.Th>
                    <Table.Th>Member</Table.Th>
                    <Table.Th>Role</Table.Th>
                    <Table.Th>Status</Table.Th>
                    <Table.Th>Team</Table.Th>
                    <Table.Th>Daily limit</Table.Th>
                    <Table.Th>Lifetime limit</Table.Th>
                    <Table.Th>Last login</Table.Th>
                    <Table.Th w={110} />
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.items.map((member) => (
                    <Table.Tr key={member.member_id} bg={selected.has(member.member_id) ? 'var(--mantine-color-indigo-light)' : undefined}>
                      <Table.Td>
                        <Checkbox
                          aria-label={`Select ${member.email}`}
                          checked={selected.has(member.member_id)}
                          onChange={() => setSelected((current) => toggleRowSelection(current, member.member_id))}
                        />
                      </Table.Td>
                      <Table.Td maw={240}>
                        <MemberCell member={member} isSelf={member.member_id === selfId} />
                      </Table.Td>
                      <Table.Td style={NO_WRAP} data-label="Role">
                        <RoleBadge role={member.role} />
                      </Table.Td>
                      <Table.Td style={NO_WRAP} data-label="Status">
                        <MemberStatusBadge member={member} />
                      </Table.Td>
                      <Table.Td data-label="Team">
                        <Text size="sm" c={member.teams.length ? undefined : 'dimmed'} maw={160} truncate>
                          {member.teams.length ? member.teams.map((team) => team.name).join(', ') : '—'}
                        </Text>
                      </Table.Td>
                      <Table.Td data-label="Daily limit">
                        <LimitUsage
                          usage={member.limits.daily}
                          pending={describePendingDailyLimit(member.limits)}
                          adjusted={member.limits.daily.remaining_override}
                          label="Daily limit"
                        />
                      </Table.Td>
                      <Table.Td data-label="Lifetime limit">
                        <LimitUsage usage={member.limits.life_time} label="Lifetime limit" />
                      </Table.Td>
                      <Table.Td data-label="Last login">
                        <Text size="sm" c={member.last_login_on ? undefined : 'dimmed'} style={NO_WRAP}>
                          {member.last_login_on ? formatDateTime(member.last_login_on) : 'Never'}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <MemberRowActions member={member} onEdit={onEdit} />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollArea>
            <PagedTableFooter
              page={filters.page}
              limit={filters.limit}
              total={data.total}
              onPageChange={(page) => onFiltersChange({ ...filters, page })}
              onLimitChange={(limit) => onFiltersChange({ ...filters, limit, page: 1 })}
            />
          </>
        ) : null}
      </Stack>
    </Card>
  );
}
