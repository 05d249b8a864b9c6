import { useMutation, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { ZIpLocation, ZMarketingStats, ZPriceQuote, type TExtensionUninstallRequest } from '@verilead/contracts';
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

/** The credits calculator's quote from the billing price slabs (GET /public/price); off while the input is invalid. */
export function usePublicPrice(credits: number, currency: 'USD' | 'INR', enabled: boolean) {
  return useQuery({
    queryKey: ['public', 'price', credits, currency],
    queryFn: ({ signal }) => requestApi({ path: `/public/price?credits=${credits}&currency=${currency}`, schema: ZPriceQuote, auth: false, signal }),
    enabled,
    placeholderData: (previous) => previous,
    staleTime: 60_000,
  });
}
