import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ZDashboardData, type TDashboardWidget, type TDatePreset } from '@verilead/contracts';
import { requestApi } from '../../../lib/api-client';

/** GET /dashboard with the widgets shown and the range chosen. */
export function useDashboard(widgets: readonly TDashboardWidget[], dateRange: TDatePreset) {
  const show = widgets.join(',');
  return useQuery({
    queryKey: ['dashboard', show, dateRange],
    queryFn: ({ signal }) => requestApi({ method: 'GET', path: '/dashboard', query: { show_widgets: show, date_range: dateRange }, schema: ZDashboardData, signal }),
    placeholderData: keepPreviousData,
    enabled: widgets.length > 0,
  });
}
