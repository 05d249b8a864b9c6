import { useMutation, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { ZIpLocation, ZMarketingStats, type TExtensionUninstallRequest } from '@verilead/contracts';
import { requestApi } from '../../../lib/api-client';

export function useIpLocation() {
  return useQuery({ queryKey: ['public', 'ip-location'], queryFn: ({ signal }) => requestApi({ path: '/public/ip_location', schema: ZIpLocation, auth: false, signal }), staleTime: Infinity });
}

export function useMarketingStats() {
  return useQuery({ queryKey: ['public', 'marketing-stats'], queryFn: ({ signal }) => requestApi({ path: '/public/marketing_stats', schema: ZMarketingStats, auth: false, signal }) });
}

export function useExtensionUninstall() {
  return useMutation({
    mutationFn: (body: TExtensionUninstallRequest) =>
      requestApi({ method: 'POST', path: '/public/extension_uninstall', body, schema: z.object({ message: z.string() }), auth: false }),
  });
}
