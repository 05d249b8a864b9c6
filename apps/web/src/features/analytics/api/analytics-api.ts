import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  ZFinderUsageData,
  ZGraphData,
  ZOverviewUsageData,
  ZPerformanceStatsData,
  ZProspectUsageData,
  ZVerifierUsageData,
  type TGraphRequest,
  type TPerformanceStatsRequest,
  type TReportRequest,
} from '@verilead/contracts';
import type { z } from 'zod';
import { requestApi } from '../../../lib/api-client';

function useReport<S extends z.ZodType>(path: string, schema: S, body: object) {
  return useQuery({
    queryKey: ['analytics', path, body],
    queryFn: ({ signal }) => requestApi({ method: 'POST', path, body, schema, signal }),
    placeholderData: keepPreviousData,
  });
}

export const useUsageGraph = (body: TGraphRequest) => useReport('/insights/graph', ZGraphData, body);
export const usePerformanceStats = (body: TPerformanceStatsRequest) => useReport('/insights/performance_stats', ZPerformanceStatsData, body);
export const useOverviewUsage = (body: TReportRequest) => useReport('/reports/overview_usage', ZOverviewUsageData, body);
export const useVerifierUsage = (body: TReportRequest) => useReport('/reports/usage', ZVerifierUsageData, body);
export const useFinderUsage = (body: TReportRequest) => useReport('/reports/finder_usage', ZFinderUsageData, body);
export const useProspectUsage = (body: TReportRequest) => useReport('/reports/prospect_usage', ZProspectUsageData, body);
