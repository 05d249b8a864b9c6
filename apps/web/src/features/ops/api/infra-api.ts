import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ZOpsFailedJobsData,
  ZOpsJobActionResponse,
  ZOpsMailHostsData,
  ZOpsPausedHostsResponse,
  ZOpsPaymentEventsData,
  ZOpsQueuesResponse,
  type TOpsJobAction,
  type TOpsPauseHost,
} from '@verilead/contracts';
import { requestOps } from './ops-client';

// The operator console's infrastructure screens: job queues, mail hosts, payment events (server: features/ops-infra).

const KEYS = { queues: ['ops', 'queues'] as const, failed: ['ops', 'queues', 'failed'] as const, hosts: ['ops', 'mail-hosts'] as const, payments: ['ops', 'payments'] as const };

/** Operator lists are read again whenever shown (a filter switched back, the screen opened again) and every 10 s. */
const LIVE = { staleTime: 0, refetchOnMount: 'always', refetchInterval: 10_000 } as const;

export function useQueueFigures() {
  return useQuery({ queryKey: KEYS.queues, queryFn: ({ signal }) => requestOps({ path: '/queues', schema: ZOpsQueuesResponse.shape.data, signal }), refetchInterval: 5_000 });
}

export function useFailedJobs(q: { page: number; limit: number; queue?: string }) {
  return useQuery({
    queryKey: [...KEYS.failed, q],
    queryFn: ({ signal }) => requestOps({ path: '/queues/failed', query: q, schema: ZOpsFailedJobsData, signal }),
    placeholderData: keepPreviousData,
    ...LIVE,
  });
}

export function useJobAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ action, ...job }: TOpsJobAction & { action: 'retry' | 'discard' }) =>
      requestOps({ method: 'POST', path: `/queues/${action}`, body: job, schema: ZOpsJobActionResponse.shape.data }),
    onSettled: () => client.invalidateQueries({ queryKey: KEYS.queues }),
  });
}

export function useMailHosts() {
  return useQuery({ queryKey: KEYS.hosts, queryFn: ({ signal }) => requestOps({ path: '/mail_hosts', schema: ZOpsMailHostsData, signal }), refetchInterval: 3_000 });
}

export function useHostPause() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ action, host, note }: TOpsPauseHost & { action: 'pause' | 'resume' }) =>
      requestOps({ method: 'POST', path: `/mail_hosts/${action}`, body: action === 'pause' ? { host, ...(note ? { note } : {}) } : { host }, schema: ZOpsPausedHostsResponse.shape.data }),
    onSettled: () => client.invalidateQueries({ queryKey: KEYS.hosts }),
  });
}

export function usePaymentEvents(q: { page: number; limit: number; failures: boolean; provider?: string }) {
  return useQuery({
    queryKey: [...KEYS.payments, q],
    queryFn: ({ signal }) => requestOps({ path: '/payments/events', query: { ...q, failures: q.failures ? 'true' : undefined }, schema: ZOpsPaymentEventsData, signal }),
    placeholderData: keepPreviousData,
    ...LIVE,
  });
}
