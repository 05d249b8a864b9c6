import { useState } from 'react';
import { Group, Select } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import dayjs from 'dayjs';
import { DATE_PRESET_LABELS, DATE_PRESETS, ZDateRange, type TDateRange } from '@verilead/contracts';

const CUSTOM = 'custom';

/** A range kept in the address (`range=last_7_days` or `range=2026-03-01..2026-03-10`); `fallback` when absent or wrong. */
export function readDateRangeParam(value: string | null, fallback: TDateRange = 'last_30_days'): TDateRange {
  if (!value) return fallback;
  const [from, to] = value.split('..');
  const parsed = ZDateRange.safeParse(to ? { from, to } : value);
  return parsed.success ? parsed.data : fallback;
}

/** The address form of a range (see readDateRangeParam). */
export function writeDateRangeParam(range: TDateRange): string {
  return typeof range === 'string' ? range : `${range.from}..${range.to}`;
}
const OPTIONS = [...DATE_PRESETS.map((p) => ({ value: p, label: DATE_PRESET_LABELS[p] })), { value: CUSTOM, label: 'Custom range' }];

/** The twelve date presets of the spec and a custom range of calendar days (evaluated by the server in the user's timezone). */
export function DateRangeSelect({ value, onChange }: { value: TDateRange; onChange: (range: TDateRange) => void }) {
  const [custom, setCustom] = useState<[string | null, string | null]>(
    typeof value === 'string' ? [null, null] : [value.from, value.to],
  );
  const mode = typeof value === 'string' ? value : CUSTOM;
  const [showCustom, setShowCustom] = useState(mode === CUSTOM);
  return (
    <Group gap="sm" wrap="wrap">
      <Select
        aria-label="Date range"
        data={OPTIONS}
        value={showCustom ? CUSTOM : mode}
        allowDeselect={false}
        w={180}
        onChange={(next) => {
          if (!next) return;
          if (next === CUSTOM) {
            setShowCustom(true);
            return;
          }
          setShowCustom(false);
          onChange(next as TDateRange);
        }}
      />
      {showCustom ? (
        <DatePickerInput
          type="range"
          aria-label="Custom dates"
          placeholder="Pick the first and last day"
          value={custom}
          maxDate={dayjs().add(1, 'day').toDate()}
          w={260}
          onChange={(range) => {
            const next: [string | null, string | null] = [range[0] ? dayjs(range[0]).format('YYYY-MM-DD') : null, range[1] ? dayjs(range[1]).format('YYYY-MM-DD') : null];
            setCustom(next);
            if (next[0] && next[1]) onChange({ from: next[0], to: next[1] });
          }}
        />
      ) : null}
    </Group>
  );
}
