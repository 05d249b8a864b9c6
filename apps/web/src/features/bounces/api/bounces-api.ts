import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ZBounceReport,
  ZBounceReportPreview,
  ZBounceReportsData,
  ZBounceWebhookSet,
  ZBounceWebhooksData,
  type TBounceMapping,
  type TBounceWebhookSetRequest,
} from '@verilead/contracts';
import { requestApi } from '../../../lib/api-client';
import { pollWhile } from '../../../lib/poll-while';
import { uploadBulkFile } from '../../../lib/upload-bulk-file';

const KEY = ['bounces'] as const;
/** How often the history is read again while a report's credit-backs await their re-check. */
export const BOUNCE_CLAIMS_POLL_MS = 3_000;

/** GET /bounces/reports: the organisation's reports and the guarantee's days; polled while claims await their re-check. */
export function useBounceReports(page: number, limit: number) {
  return useQuery({
    queryKey: [...KEY, 'reports', page, limit],
    queryFn: ({ signal }) => requestApi({ path: '/bounces/reports', query: { page, limit }, schema: ZBounceReportsData, signal }),
    placeholderData: keepPreviousData,
    refetchInterval: pollWhile((d: { items: { credit_backs_pending: number }[] } | undefined) => (d?.items ?? []).some((r) => r.credit_backs_pending > 0), BOUNCE_CLAIMS_POLL_MS),
  });
}

/** POST /bounces/reports/upload: stores the report, answers the preview with the detected columns. */
export function uploadBounceReport(file: File, onProgress: (percent: number) => void) {
  return uploadBulkFile({ path: '/bounces/reports/upload', schema: ZBounceReportPreview, file, fields: {}, onProgress: (p) => onProgress(p.percent) });
}

/** POST /bounces/reports/apply: applies the report with the confirmed columns (once). */
export function useApplyBounceReport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { report_id: string; mapping: TBounceMapping }) => requestApi({ method: 'POST', path: '/bounces/reports/apply', body, schema: ZBounceReport }),
    onSuccess: () => void client.invalidateQueries({ queryKey: KEY }),
  });
}

/** GET /bounces/webhooks: the ESP webhooks (their addresses are stored hashed: never listed). */
export function useBounceWebhooks() {
  return useQuery({ queryKey: [...KEY, 'webhooks'], queryFn: ({ signal }) => requestApi({ path: '/bounces/webhooks', schema: ZBounceWebhooksData, signal }) });
}

/** POST /bounces/webhooks: creates an ESP's webhook, rotates its address or sets SendGrid's key (a new address is answered this once). */
export function useSetBounceWebhook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: TBounceWebhookSetRequest) => requestApi({ method: 'POST', path: '/bounces/webhooks', body, schema: ZBounceWebhookSet }),
    onSuccess: () => void client.invalidateQueries({ queryKey: [...KEY, 'webhooks'] }),
  });
}
