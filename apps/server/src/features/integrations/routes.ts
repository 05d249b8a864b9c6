import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZAccountListsResponse,
  ZConnectAccountRequest,
  ZDeleteAccountQuery,
  ZDeleteAccountResponse,
  ZIntegrationAccountParams,
  ZImportCancelRequest,
  ZIntegrationImportResponse,
  ZIntegrationImportsResponse,
  ZIntegrationParams,
  ZLinkedAccountResponse,
  ZLeadsSourceListsResponse,
  ZLeadsVerifyRequest,
  ZLinkedAccountsResponse,
  ZOAuthQuery,
  ZOAuthResponse,
  ZIntegrationTestModeResponse,
  ZVerifyListRequest,
} from '@verilead/contracts';
import { getCaller, type TGuards } from '../../platform/auth/guards';
import type { TDeps } from '../../platform/deps';
import { ok, withErrorResponses } from '../../platform/http/responses';
import { listLeadsSources } from './leads-source';
import { handleOAuth } from './oauth/service';
import { registerListSyncRoutes } from './list-sync-routes';
import { describeIntegrationTestMode } from './test-mode';
import { cancelImport, connectAccount, getAccountLists, listImports, listLinkedAccounts, listPlatformAccounts, removeAccount, startLeadsImport, startListImport, type TIntegrationRuntime } from './service';

/** Integrations: connected accounts, a platform's lists, importing a list to verify it (under /api/v1). */
export function registerIntegrationRoutes(app: FastifyInstance, deps: TDeps, guards: TGuards, rtOverrides: Partial<TIntegrationRuntime> = {}) {
  const db = deps.database.db;
  const rt: TIntegrationRuntime = { config: deps.config, storage: deps.storage, standIns: deps.standIns, ...rtOverrides };
  const base = { tags: ['integration'], security: [{ bearer: [] }] };
  const auth = { onRequest: guards.requireAuth };
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/integration/linked_accounts',
    { ...auth, schema: { ...base, summary: "The organisation's connected accounts", response: withErrorResponses({ 200: ZLinkedAccountsResponse }) } },
    async (req) => ok(await listLinkedAccounts(db, getCaller(req))),
  );
  r.get(
    '/integration/test_mode',
    { ...auth, schema: { ...base, summary: 'Whether platforms are answered by local stand-ins (test mode), and their credentials', response: withErrorResponses({ 200: ZIntegrationTestModeResponse }) } },
    async () => ok(await describeIntegrationTestMode(deps.config)),
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
  for (const platform of ['mailchimp', 'zoho'] as const) {
    r.get(
      `/oauth/${platform}`,
      {
        ...auth,
        schema: {
          ...base,
          summary: `Connect ${platform === 'mailchimp' ? 'Mailchimp' : 'Zoho CRM'} through OAuth: without \`code\`, the consent URL (signed single-use state); with \`code\` and \`state\`, the connected account`,
          querystring: ZOAuthQuery,
          response: withErrorResponses({ 200: ZOAuthResponse }),
        },
      },
      async (req) => ok(await handleOAuth(deps, rt, getCaller(req), platform, req.query)),
    );
  }
  r.get(
    '/integration/leads/lists',
    { ...auth, schema: { ...base, summary: 'Prospect lists that can be verified (the `leads` source), with their revealed e-mails', response: withErrorResponses({ 200: ZLeadsSourceListsResponse }) } },
    async (req) => ok(await listLeadsSources(db, getCaller(req))),
  );
  r.post(
    '/integration/leads/verify_list',
    { ...auth, schema: { ...base, summary: "Import a prospect list's revealed e-mails as a verifier list (source `leads`) and verify it", body: ZLeadsVerifyRequest, response: withErrorResponses({ 200: ZIntegrationImportResponse }) } },
    async (req) => {
      return ok(await startLeadsImport(deps, getCaller(req), req.body));
    },
  );
  r.get(
    '/integration/imports',
    { ...auth, schema: { ...base, summary: 'Recent imports with their progress', response: withErrorResponses({ 200: ZIntegrationImportsResponse }) } },
    async (req) => ok(await listImports(db, getCaller(req))),
  );
  r.post(
    '/integration/imports/cancel',
    {
      ...auth,
      schema: { ...base, summary: 'Cancel a running import (its verification and write-back stop; what is done stays)', body: ZImportCancelRequest, response: withErrorResponses({ 200: ZIntegrationImportResponse }) },
    },
    async (req) => ok(await cancelImport(deps, getCaller(req), req.body.import_id)),
  );
  registerListSyncRoutes(app, deps, guards);
}
