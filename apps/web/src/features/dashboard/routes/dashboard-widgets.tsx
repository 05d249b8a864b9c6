import { Button, Checkbox, Popover, Stack } from '@mantine/core';
import { IconLayoutDashboard } from '@tabler/icons-react';
import { useLocalStorage } from '@mantine/hooks';
import { DASHBOARD_WIDGETS, type TDashboardWidget } from '@verilead/contracts';

export const WIDGET_LABELS: Readonly<Record<TDashboardWidget, string>> = {
  credits: 'Credits',
  usage_split: 'Billable split',
  usage_trend: 'Credits over time',
  email_verifier: 'Email Verifier results',
  email_finder: 'Email Finder results',
  recent_activity: 'Recent activity',
};

/** The widgets the user chose to show (kept in this browser), every widget by default. */
export function useShownWidgets() {
  const [shown, setShown] = useLocalStorage<TDashboardWidget[]>({ key: 'verilead-dashboard-widgets', defaultValue: [...DASHBOARD_WIDGETS] });
  const valid = shown.filter((w) => (DASHBOARD_WIDGETS as readonly string[]).includes(w));
  return [DASHBOARD_WIDGETS.filter((w) => valid.includes(w)), setShown] as const;
}

/** A popover of checkboxes choosing the dashboard's widgets. */
export function WidgetPicker({ shown, onChange }: { shown: readonly TDashboardWidget[]; onChange: (next: TDashboardWidget[]) => void }) {
  return (
    <Popover position="bottom-end" shadow="md" withArrow>
      <Popover.Target>
        <Button variant="default" leftSection={<IconLayoutDashboard size={16} />}>
          Widgets
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Checkbox.Group value={[...shown]} onChange={(v) => onChange(v as TDashboardWidget[])} label="Show on the dashboard">
          <Stack gap={8} mt="xs">
            {DASHBOARD_WIDGETS.map((w) => (
              <Checkbox key={w} value={w} label={WIDGET_LABELS[w]} />
            ))}
          </Stack>
        </Checkbox.Group>
      </Popover.Dropdown>
    </Popover>
  );
}
