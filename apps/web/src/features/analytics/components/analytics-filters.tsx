import { useMemo } from 'react';
import { Group, Select } from '@mantine/core';
import { useSearchParams } from 'react-router';
import type { TDateRange, TReportRequest } from '@verilead/contracts';
import { DateRangeSelect, readDateRangeParam, writeDateRangeParam } from '../../../components/date-range-select';
import { useSessionStore } from '../../../lib/session-store';
import { usePerformanceStats } from '../api/analytics-api';


/** Whether the caller may look beyond their own usage (owners and managers). */
export function useCanSeeTeam(): boolean {
  const role = useSessionStore((s) => s.user_role);
  return role === 'owner' || role === 'admin';
}

/**
 * The report filters kept in the address (`?range=last_7_days&view=org`), so every analytics screen shares them:
 * the range (a preset or `from..to`) and, for owners and managers, whose usage (`me`, `org`, `member:<id>`, `team:<id>`).
 */
export function useAnalyticsFilters() {
  const [params, setParams] = useSearchParams();
  const canSeeTeam = useCanSeeTeam();
  const range = readDateRangeParam(params.get('range'));
  const view = canSeeTeam ? (params.get('view') ?? 'me') : 'me';
  const request = useMemo<TReportRequest>(() => {
    const base: TReportRequest = { date_range: range };
    if (view === 'org') return { ...base, scope: 'organisation' };
    if (view.startsWith('member:')) return { ...base, member_id: view.slice(7) };
    if (view.startsWith('team:')) return { ...base, team_id: view.slice(5) };
    return base;
  }, [range, view]);
  const update = (key: 'range' | 'view', value: string) => {
    const next = new URLSearchParams(params);
    next.set(key, value);
    setParams(next, { replace: true });
  };
  return { range, view, request, setRange: (r: TDateRange) => update('range', writeDateRangeParam(r)), setView: (v: string) => update('view', v) };
}

/** The range picker and, for owners and managers, whose usage to show. */
export function AnalyticsFilters({ filters }: { filters: ReturnType<typeof useAnalyticsFilters> }) {
  const canSeeTeam = useCanSeeTeam();
  return (
    <Group gap="sm" wrap="wrap">
      <DateRangeSelect value={filters.range} onChange={filters.setRange} />
      {canSeeTeam ? <ViewSelect value={filters.view} onChange={filters.setView} /> : null}
    </Group>
  );
}

function ViewSelect({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  const members = usePerformanceStats({ scope: 'organisation', group_by: 'member', date_range: 'today' });
  const teams = usePerformanceStats({ group_by: 'team', date_range: 'today' });
  const data = [
    { group: 'Usage of', items: [{ value: 'me', label: 'My usage' }, { value: 'org', label: 'Whole organisation' }] },
    { group: 'Teams', items: (teams.data?.rows ?? []).filter((r) => r.id !== 'no_team').map((r) => ({ value: `team:${r.id}`, label: r.name })) },
    { group: 'Members', items: (members.data?.rows ?? []).map((r) => ({ value: `member:${r.id}`, label: r.name })) },
  ].filter((g) => g.items.length > 0);
  return <Select aria-label="Whose usage" data={data} value={value} onChange={(v) => v && onChange(v)} allowDeselect={false} searchable w={220} />;
}
