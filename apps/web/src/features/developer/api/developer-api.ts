import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  ZApp,
  ZWebhook,
  ZWebhookEventLog,
  type TWebhookEventLogsRequest,
  type TWebhookUpsertRequest,
} from '@verilead/contracts';
import { requestApi } from '../../../lib/api-client';

export const developerQueryKeys = {
  defaultApp: ['developer', 'default-app'] as const,
  doc: (url: string) => ['developer', 'doc', url] as const,
  webhooks: ['developer', 'webhooks'] as const,
  secret: ['developer', 'webhook-secret'] as const,
  logs: (q: TWebhookEventLogsRequest) => ['developer', 'webhook-logs', q] as const,
};

/** GET /apps/default: the default app (its token is only in the answer that created it). */
/** GET /apps/default: the caller's default app, or null before they create one. */
export function useDefaultApp() {
  return useQuery({ queryKey: developerQueryKeys.defaultApp, queryFn: ({ signal }) => requestApi({ path: '/apps/default', schema: ZApp.nullable(), signal }), staleTime: Infinity });
}

/** POST /apps/default: creates the caller's default app (its token shown once). */
export function useCreateDefaultApp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => requestApi({ method: 'POST', path: '/apps/default', schema: ZApp }),
    onSuccess: (app) => queryClient.setQueryData(developerQueryKeys.defaultApp, app),
  });
}

/** Rotates the default app's token (POST /apps/update rotate_token). */
export function useRotateDefaultToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (appId: string) => requestApi({ method: 'POST', path: '/apps/update', body: { app_id: appId, rotate_token: true }, schema: ZApp }),
    onSuccess: (app) => queryClient.setQueryData(developerQueryKeys.defaultApp, app),
  });
}

export type TOpenApiDocument = {
  openapi?: string;
  info?: { title?: string; version?: string; description?: string };
  servers?: { url: string }[];
  paths?: Record<string, Record<string, TOpenApiOperation>>;
  components?: { schemas?: Record<string, unknown> };
};
export type TOpenApiOperation = {
  summary?: string;
  description?: string;
  operationId?: string;
  tags?: string[];
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: unknown }[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }>;
};

/** An OpenAPI document served by this server (the app API's or the public API's). */
export function useOpenApiDocument(url: string) {
  return useQuery({
    queryKey: developerQueryKeys.doc(url),
    queryFn: async ({ signal }) => {
      const res = await fetch(url, { signal, headers: { accept: 'application/json' } });
      if (!res.ok) throw new Error(`The document could not be loaded (HTTP ${res.status})`);
      return (await res.json()) as TOpenApiDocument;
    },
    staleTime: 5 * 60_000,
  });
}

export const PUBLIC_API_DOCUMENT_URL = '/v2/openapi.json';

/** The public API's base URL as the server states it (its reference's server): the API page and the reference show the same. */
export function usePublicApiBaseUrl(): string | null {
  const doc = useOpenApiDocument(PUBLIC_API_DOCUMENT_URL);
  return doc.data?.servers?.[0]?.url ?? null;
}

// ---------- webhooks ----------

const ZWebhookList = z.object({ items: z.array(ZWebhook), total: z.number() });
const ZSecret = z.object({ secret: z.string().nullable() });
const ZEventLogs = z.object({ items: z.array(ZWebhookEventLog), total: z.number() });

export function useWebhooks() {
  return useQuery({ queryKey: developerQueryKeys.webhooks, queryFn: ({ signal }) => requestApi({ path: '/webhook/list', query: { limit: 100 }, schema: ZWebhookList, signal }) });
}

export function useSaveWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TWebhookUpsertRequest) => requestApi({ method: 'POST', path: '/webhook', body, schema: ZWebhook }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: developerQueryKeys.webhooks });
      void queryClient.invalidateQueries({ queryKey: developerQueryKeys.secret });
    },
  });
}

export function useDeleteWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => requestApi({ method: 'DELETE', path: `/webhook/${id}` }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: developerQueryKeys.webhooks }),
  });
}

export function useWebhookSecret() {
  return useQuery({ queryKey: developerQueryKeys.secret, queryFn: ({ signal }) => requestApi({ path: '/webhook/token', schema: ZSecret, signal }) });
}

export function useGenerateSecret() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => requestApi({ method: 'POST', path: '/webhook/token', schema: ZSecret }),
    onSuccess: (data) => queryClient.setQueryData(developerQueryKeys.secret, data),
  });
}

export function useTestWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (webhookId: string) => requestApi({ method: 'POST', path: '/webhook/test', body: { webhook_id: webhookId }, schema: ZWebhookEventLog }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['developer', 'webhook-logs'] }),
  });
}

/** POST /webhook/event_logs: cancelled (AbortSignal) when the filters change before it answers. */
export function useEventLogs(q: TWebhookEventLogsRequest) {
  return useQuery({
    queryKey: developerQueryKeys.logs(q),
    queryFn: ({ signal }) => requestApi({ method: 'POST', path: '/webhook/event_logs', body: q, schema: ZEventLogs, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useRedeliver() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string) => requestApi({ method: 'POST', path: '/webhook/event_logs/redeliver', body: { delivery_id: deliveryId }, schema: ZWebhookEventLog }),
    onSuccess: () => {
      // The attempt runs as a job: look again shortly.
      void queryClient.invalidateQueries({ queryKey: ['developer', 'webhook-logs'] });
      setTimeout(() => void queryClient.invalidateQueries({ queryKey: ['developer', 'webhook-logs'] }), 1500);
    },
  });
}
