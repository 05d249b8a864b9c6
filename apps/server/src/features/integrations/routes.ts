import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZAccountListsResponse,
  ZConnectAccountRequest,
  ZDeleteAccountQuery,
  ZDeleteAccountResponse,
  ZIntegrationAccountParams,
  ZIntegrationImportResponse,
  ZIntegrationImportsResponse,
  ZIntegrationParams,
  ZLinkedAccountResponse,
  ZLinkedAccountsResponse,
  ZVerifyListRequest,
} from '@verilead/contracts';
import { getCaller, type TGuards } from '../../platform/auth/guards';
import type { TDeps } from '../../platform/deps';
import { ok, withErrorResponses } from '../../platform/http/responses';
import { getStorage } from '../../platform/storage/storage';
import { connectAccount, getAccountLists, listImports, listLinkedAccounts, listPlatformAccounts, removeAccount, startListImport, type TIntegrationRuntime } from './service';

/** Integrations: connected accounts, a platform's lists, importing a list to verify it (under /api/v1). */
export function registerIntegrationRoutes(app: FastifyInstance, deps: TDeps, guards: TGuards, rtOverrides: Partial<TIntegrationRuntime> = {}) {
  const db = deps.database.db;
  const rt: TIntegrationRuntime = { config: deps.config, storage: getStorage(deps.config), ...rtOverrides };
  const base = { tags: ['integration'], security: [{ bearer: [] }] };
  const auth = { onRequest: guards.requireAuth };
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/integration/linked_accounts',
    { ...auth, schema: { ...base, summary: "The organisation's connected accounts", response: withErrorResponses({ 200: ZLinkedAccountsResponse }) } },
    async (req) => ok(await listLinkedAccounts(db, getCaller(req))),
  );
  r.get(
    '/integration/account/:integration',
    { ...auth, schema: { ...base, summary: 'Connected accounts of one platform', params: ZIntegrationParams, response: withErrorResponses({ 200: ZLinkedAccountsResponse }) } },
    async (req) => ok(await listPlatformAccounts(db, getCaller(req), req.params.integration)),
  );
  r.post(
    '/integration/account/:integration',
    {
      ...auth,
      schema: { ...base, summary: 'Connect an account (its credentials are checked with the platform first)', params: ZIntegrationParams, body: ZConnectAccountRequest, response: withErrorResponses({ 200: ZLinkedAccountResponse }) },
    },
    async (req) => ok(await connectAccount(deps, rt, getCaller(req), req.params.integration, req.body)),
  );
  r.delete(
    '/integration/account/:integration',
    { ...auth, schema: { ...base, summary: 'Disconnect an account', params: ZIntegrationParams, querystring: ZDeleteAccountQuery, response: withErrorResponses({ 200: ZDeleteAccountResponse }) } },
    async (req) => ok(await removeAccount(deps, getCaller(req), req.params.integration, req.query.account_id)),
  );
  r.get(
    '/integration/account/:integration/:x',
    { ...auth, schema: { ...base, summary: 'One connected account and its lists on the platform', params: ZIntegrationAccountParams, response: withErrorResponses({ 200: ZAccountListsResponse }) } },
    async (req) => ok(await getAccountLists(db, rt, getCaller(req), req.params.integration, req.params.x)),
  );
  r.post(
    '/integration/account/:integration/verify_list',
    {
      ...auth,
      schema: { ...base, summary: 'Import a platform list, verify it and write the results back', params: ZIntegrationParams, body: ZVerifyListRequest, response: withErrorResponses({ 200: ZIntegrationImportResponse }) },
    },
    async (req) => ok(await startListImport(deps, rt, getCaller(req), req.params.integration, req.body)),
  );
  r.get(
    '/integration/imports',
    { ...auth, schema: { ...base, summary: 'Recent imports with their progress', response: withErrorResponses({ 200: ZIntegrationImportsResponse }) } },
    async (req) => ok(await listImports(db, getCaller(req))),
  );
}
