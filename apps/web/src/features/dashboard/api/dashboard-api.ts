import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
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

/** POST /user/resend_verification: a new link to verify the caller's address. */
export function useResendVerification() {
  return useMutation({ mutationFn: () => requestApi({ method: 'POST', path: '/user/resend_verification', schema: z.object({ message: z.string() }) }) });
}
