import {
  IconAdjustmentsHorizontal,
  IconApps,
  IconArrowsExchange,
  IconChartBar,
  IconCode,
  IconKey,
  IconLayoutDashboard,
  IconMailCheck,
  IconMailSearch,
  IconPlugConnected,
  IconShieldLock,
  IconTag,
  IconTrash,
  IconUserCircle,
  IconUsersGroup,
  type Icon,
} from '@tabler/icons-react';
import type { TMenuArea, TMenuEntry } from '@verilead/contracts';

const AREA_ICONS: Record<TMenuArea, Icon> = {
  dashboard: IconLayoutDashboard,
  email_verifier: IconMailCheck,
  email_finder: IconMailSearch,
  prospect: IconUsersGroup,
  reverse_lookup: IconArrowsExchange,
  analytics: IconChartBar,
  integrations: IconPlugConnected,
  apps: IconApps,
  developer: IconCode,
  admin: IconShieldLock,
  settings: IconAdjustmentsHorizontal,
  account: IconUserCircle,
};

const ENTRY_ICONS: Record<string, Icon> = {
  'account.profile': IconUserCircle,
  'account.pricing': IconTag,
  'account.api': IconKey,
  'account.delete': IconTrash,
};

export function getMenuIcon(entry: TMenuEntry): Icon {
  return ENTRY_ICONS[`${entry.area}.${entry.key}`] ?? AREA_ICONS[entry.area];
}
