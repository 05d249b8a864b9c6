import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  MCP_TOOL_NAMES,
  PUBLIC_API_ERROR_CODES as CODES,
  ZMcpCreditsInput,
  ZMcpFindEmailInput,
  ZMcpListResultsInput,
  ZMcpListStatusInput,
  ZMcpVerifyEmailInput,
} from '@verilead/contracts';
import type { TDeps } from '../../platform/deps';
import { isAppError } from '../../platform/errors/app-error';
import { httpStatusOf } from '../../platform/errors/http-status';
import type { TVerifier } from '../../platform/verifier/verifier';
import { getCreditsAndLimits } from '../credits';
import { type TAppCaller, PublicApiError, mapServiceError, findForApp, verifyForApp } from '../developer';
import { getProgressStatus, getListForExport, readListRowsPage } from '../email-verifier';

/** How long the find tool waits for a search before answering that it goes on in the background (the /v2 maximum). */
const FIND_TIMEOUT_MS = 60_000;
const LIST_NOT_FOUND = { status: 404, code: CODES.listNotAvailable, message: 'List not found: no bulk verification list with this id in your organisation' };

type TLog = { error(obj: unknown, msg: string): void };

/** A tool's answer: the data as JSON text (what every assistant reads) and as structured content. */
function answer(data: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(data, null, 2) }], structuredContent: data };
}

/** A refusal as an MCP tool error (`isError`), worded as /v2 words it; never a protocol error or a 500. */
export function toToolError(err: unknown, log: TLog): CallToolResult {
  let message: string;
  if (err instanceof PublicApiError) {
    const reasons = ((err.body.error.reasons ?? []) as { messages?: string[] }[]).flatMap((r) => r.messages ?? []);
    message = reasons.length > 0 ? reasons.join('; ') : err.body.error.message;
  } else if (isAppError(err) && httpStatusOf(err) < 500) {
    message = err.message;
  } else {
    log.error({ err }, 'mcp tool failed');
    message = 'The service is unavailable, please try again shortly';
  }
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** What a tool answers once its client went away (nobody reads it: the transport is closed). */
const CANCELLED: CallToolResult = { content: [{ type: 'text', text: 'The call was cancelled' }], isError: true };

async function run(log: TLog, work: () => Promise<Record<string, unknown>>, signal?: AbortSignal): Promise<CallToolResult> {
  try {
    return answer(await work());
  } catch (err) {
    // Stopped because the client went away (or cancelled the call): not a failure of the service.
    if (signal?.aborted) return CANCELLED;
    return toToolError(err, log);
  }
}

/**
 * The MCP tools of one app caller. Each goes through the service its /v2 route calls (verifyForApp, findForApp, the
 * verifier's list services, the credits service), so a tool charges exactly what the API charges, with the same
 * source, app usage and limits; lists are read in the caller's organisation only (another's id: not found).
 */
export function registerMcpTools(server: McpServer, deps: TDeps, verifier: TVerifier, c: TAppCaller, log: TLog): void {
  const { db } = deps.database;

  server.registerTool(
    MCP_TOOL_NAMES.verifyEmail,
    {
      title: 'Verify an email address',
      description:
        'Verifies one email address now (syntax, DNS, SMTP): status valid / invalid / catch_all / unknown, the reason and flags. Charges 1 credit for a valid, invalid or catch-all verdict, as the /v2 instant verification does.',
      inputSchema: ZMcpVerifyEmailInput,
    },
    // The request's signal stops the verification when the client goes away (the transport closes) or cancels the call.
    (input, extra) => run(log, async () => ({ ...(await verifyForApp(deps, verifier, c, { email: input.email, timeout: input.timeout_ms, signal: extra.signal })) }), extra.signal),
  );

  server.registerTool(
    MCP_TOOL_NAMES.findEmail,
    {
      title: "Find a person's email address",
      description: "Finds a person's business email address from their first name, last name and company domain. Charges 1 credit only when an address is found, as the /v2 email finder does.",
      inputSchema: ZMcpFindEmailInput,
    },
    (input) =>
      run(log, async () => {
        const found = await findForApp(deps, verifier, c, { first_name: input.first_name, last_name: input.last_name, domain: input.domain, timeout: FIND_TIMEOUT_MS });
        if (found.queued) return { queued: true, queue_id: found.qid, message: 'The search takes longer than a minute; it goes on in the background (GET /v2/email_finder/instant/queue_status?qid=…)' };
        return { ...found };
      }),
  );

  server.registerTool(
    MCP_TOOL_NAMES.listStatus,
    {
      title: 'Bulk verification list status',
      description: "A bulk verification list's state and progress (percent), how many addresses are verified of the total, and the counts per status. Free.",
      inputSchema: ZMcpListStatusInput,
    },
    (input) =>
      run(log, async () => {
        try {
          return { ...(await getProgressStatus(db, c.ctx, input.list_id)) };
        } catch (err) {
          return mapServiceError(err, LIST_NOT_FOUND);
        }
      }),
  );

  server.registerTool(
    MCP_TOOL_NAMES.listResults,
    {
      title: 'Bulk verification list results',
      description: "A page of a bulk verification list's rows in file order, with each address's result (status, reason, flags). Page with after_row: give the last row_number of the previous page. Free.",
      inputSchema: ZMcpListResultsInput,
    },
    (input) =>
      run(log, async () => {
        try {
          const list = await getListForExport(db, c.ctx, input.list_id);
          const rows = await readListRowsPage(db, list.id, input.after_row, input.limit);
          const last = rows.at(-1);
          return { list_id: list.id, name: list.name, state: list.state, rows, next_after_row: rows.length === input.limit && last ? last.row_number : null };
        } catch (err) {
          return mapServiceError(err, LIST_NOT_FOUND);
        }
      }),
  );

  server.registerTool(
    MCP_TOOL_NAMES.credits,
    {
      title: 'Credit balance',
      description: "The credits this app's member can spend now (the organisation's balance, within the member's limits), the organisation's balance and the member's daily limit. Free.",
      inputSchema: ZMcpCreditsInput,
    },
    () =>
      run(log, async () => {
        const credits = await getCreditsAndLimits(db, c.ctx);
        return { available_credits: credits.credits, organisation_credits: credits.org_credits, daily_limit: credits.limits.daily };
      }),
  );
}
