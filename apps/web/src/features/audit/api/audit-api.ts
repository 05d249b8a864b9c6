import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { APP_VERSION, APP_VERSION_HEADER, ZAuditLogData, ZMemberListData, type TAuditAction } from '@verilead/contracts';
import { API_BASE, requestApi } from '../../../lib/api-client';
import { readFileName, saveBlob } from '../../../lib/fetch-download';
import { getSessionToken } from '../../../lib/session-store';

export type TAuditFilters = { action?: TAuditAction; actor_id?: string; from?: string; to?: string };

function queryOf(filters: TAuditFilters): Record<string, string | undefined> {
  return { action: filters.action, actor_id: filters.actor_id, from: filters.from, to: filters.to };
}

/** GET /audit_log: a page of the organisation's audit log. */
export function useAuditLog(filters: TAuditFilters & { page: number; limit: number }) {
  return useQuery({
    queryKey: ['audit-log', filters],
    queryFn: ({ signal }) => requestApi({ path: '/audit_log', query: { ...queryOf(filters), page: filters.page, limit: filters.limit }, schema: ZAuditLogData, signal }),
    placeholderData: keepPreviousData,
  });
}

/** The organisation's members for the "member" filter (POST /admin/member/list, first 500). */
export function useAuditMembers() {
  return useQuery({
    queryKey: ['audit-log', 'members'],
    queryFn: ({ signal }) => requestApi({ method: 'POST', path: '/admin/member/list', body: { page: 1, limit: 500 }, schema: ZMemberListData, signal }),
    staleTime: 60_000,
  });
}

/** GET /audit_log/export: the filtered entries as a CSV file, saved by the browser. */
export async function downloadAuditCsv(filters: TAuditFilters): Promise<void> {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(queryOf(filters))) if (value) params.set(key, value);
  const token = getSessionToken();
  const response = await fetch(`${API_BASE}/audit_log/export?${params.toString()}`, {
    headers: { [APP_VERSION_HEADER]: APP_VERSION, accept: 'text/csv', ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
  if (!response.ok) throw new Error(`The export could not be prepared (HTTP ${response.status}). Please try again.`);
  saveBlob(await response.blob(), readFileName(response.headers.get('content-disposition'), 'audit-log.csv'));
}
