import { DatePickerInput } from '@mantine/dates';
import { IconCalendar } from '@tabler/icons-react';

/** First and last calendar day of a filter, either open (null). */
export type TDayRange = [string | null, string | null];

/** A list's "Date range" filter of calendar days up to today, clearable ("Any date"): the audit log and the credits ledger. */
export function DayRangeInput({ value, onChange }: { value: TDayRange; onChange: (range: TDayRange) => void }) {
  return (
    <DatePickerInput
      type="range"
      aria-label="Date range"
      placeholder="Any date"
      value={value}
      onChange={(next) => onChange(next as TDayRange)}
      clearable
      maxDate={new Date()}
      leftSection={<IconCalendar size={16} />}
      w={250}
      valueFormat="D MMM YYYY"
    />
  );
}
