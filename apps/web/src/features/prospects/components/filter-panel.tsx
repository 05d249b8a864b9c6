import { Card, Group, MultiSelect, NumberInput, Stack, Switch, TagsInput, Text, TextInput } from '@mantine/core';
import type { TProspectFilters, TProspectMetaData } from '@verilead/contracts';
import { formatNumber } from '../../../lib/format';
import { cleanFilters, optionLabel } from './labels';

type TListKey = 'seniorities' | 'departments' | 'countries' | 'size_ranges' | 'revenue_ranges' | 'industries' | 'technologies';

/** Options of a filter with their facet counts ("Senior (1,204)"); chosen values stay listed. */
function optionsOf(values: readonly string[], facet: { value: string; count: number }[] | undefined, chosen: readonly string[] = []) {
  const counts = new Map((facet ?? []).map((b) => [b.value, b.count]));
  const all = [...new Set([...values, ...(facet ?? []).map((b) => b.value), ...chosen])];
  return all.map((v) => ({ value: v, label: counts.has(v) ? `${optionLabel(v)} (${formatNumber(counts.get(v)!)})` : optionLabel(v) }));
}

/** The search filters (Apollo-grade), with facet counts from GET /prospect/search/meta. */
export function FilterPanel({
  filters,
  onChange,
  meta,
  companies = false,
}: {
  filters: TProspectFilters;
  onChange: (f: TProspectFilters) => void;
  meta: TProspectMetaData | undefined;
  companies?: boolean;
}) {
  const set = (patch: Partial<TProspectFilters>) => onChange(cleanFilters({ ...filters, ...patch }));
  const multi = (key: TListKey, label: string, facet: string, fixed: readonly string[] = []) => (
    <MultiSelect
      label={label}
      aria-label={label}
      searchable
      clearable
      data={optionsOf(fixed, meta?.facets[facet], filters[key] as string[] | undefined)}
      value={(filters[key] as string[] | undefined) ?? []}
      onChange={(v) => set({ [key]: v } as Partial<TProspectFilters>)}
    />
  );
  return (
    <Card padding="md" withBorder>
      <Stack gap="sm">
        <Text fw={600}>Filters</Text>
        {meta?.sampled ? (
          <Text size="xs" c="dimmed" data-testid="facet-sample-note">
            Counts beside the options are from a sample of {formatNumber(meta.total)} matching {companies ? 'companies' : 'people'}.
          </Text>
        ) : null}
        <TextInput label="Keywords" placeholder={companies ? 'Company or domain' : 'Name, title or company'} value={filters.keywords ?? ''} onChange={(e) => set({ keywords: e.currentTarget.value || undefined })} />
        {companies ? null : (
          <>
            <TagsInput label="Job titles" placeholder="Type a title and press Enter" value={filters.job_titles ?? []} onChange={(v) => set({ job_titles: v })} />
            <Switch label="Include similar titles" checked={filters.similar_titles ?? false} onChange={(e) => set({ similar_titles: e.currentTarget.checked })} />
            {multi('seniorities', 'Seniority', 'seniority', meta?.options.seniorities)}
            {multi('departments', 'Department', 'department', meta?.options.departments)}
          </>
        )}
        {multi('countries', 'Country', 'country')}
        <TagsInput label="Region" value={filters.regions ?? []} onChange={(v) => set({ regions: v })} />
        <TagsInput label="City" value={filters.cities ?? []} onChange={(v) => set({ cities: v })} />
        {companies ? null : <TagsInput label="Company name" value={filters.company_names ?? []} onChange={(v) => set({ company_names: v })} />}
        <TagsInput label="Company domain" value={filters.company_domains ?? []} onChange={(v) => set({ company_domains: v })} />
        {multi('size_ranges', 'Company size', 'size_range', meta?.options.size_ranges)}
        {multi('industries', 'Industry', 'industry')}
        {multi('revenue_ranges', 'Revenue', 'revenue_range', meta?.options.revenue_ranges)}
        {multi('technologies', 'Technologies', 'technologies')}
        <Group grow>
          <NumberInput label="Founded from" min={1600} max={2100} value={filters.founded_year_min ?? ''} onChange={(v) => set({ founded_year_min: typeof v === 'number' ? v : undefined })} />
          <NumberInput label="Founded to" min={1600} max={2100} value={filters.founded_year_max ?? ''} onChange={(v) => set({ founded_year_max: typeof v === 'number' ? v : undefined })} />
        </Group>
      </Stack>
    </Card>
  );
}
