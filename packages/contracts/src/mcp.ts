import { z } from 'zod';

/**
 * The MCP server's tools (`/mcp`, streamable HTTP, app tokens): their names and input schemas. The schemas are plain
 * objects without transforms, so the MCP SDK publishes them as the tools' JSON Schema, and messages are written for
 * people (an assistant shows them as they are).
 */
export const MCP_PATH = '/mcp';

export const MCP_TOOL_NAMES = {
  verifyEmail: 'verify_email',
  findEmail: 'find_email',
  listStatus: 'get_list_status',
  listResults: 'get_list_results',
  credits: 'get_credits',
} as const;

const ZListId = z
  .string()
  .trim()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, { message: 'The list id is not valid: give the list_id a bulk verification answered' })
  .describe('The id of a bulk verification list (as /v2/email_verify/bulk answers it)');

const ZMcpNamePart = (which: string) =>
  z
    .string()
    .trim()
    .min(1, { message: `Please give the ${which}` })
    .max(100, { message: `The ${which} is too long` })
    .regex(/^[\p{L}\p{M} .'’-]*$/u, { message: `Unsupported characters in the ${which}` });

export const ZMcpVerifyEmailInput = z.object({
  email: z.string().trim().min(1, { message: 'Please give an email address' }).max(320, { message: 'The address is too long' }).describe('The email address to verify'),
  timeout_ms: z
    .number()
    .int({ message: 'The timeout is a whole number of milliseconds' })
    .min(1_000, { message: 'The timeout is at least 1,000 ms' })
    .max(180_000, { message: 'The timeout is at most 180,000 ms' })
    .optional()
    .describe('Give up after this many milliseconds (nothing is charged then); default 130,000'),
});
export type TMcpVerifyEmailInput = z.output<typeof ZMcpVerifyEmailInput>;

export const ZMcpFindEmailInput = z.object({
  first_name: ZMcpNamePart('first name').describe("The person's first name"),
  last_name: ZMcpNamePart('last name').describe("The person's last name"),
  domain: z.string().trim().min(1, { message: "Please give the company's domain" }).max(253, { message: 'The domain is too long' }).describe("The company's domain, e.g. example.com"),
});
export type TMcpFindEmailInput = z.output<typeof ZMcpFindEmailInput>;

export const ZMcpListStatusInput = z.object({ list_id: ZListId });
export type TMcpListStatusInput = z.output<typeof ZMcpListStatusInput>;

export const MCP_LIST_RESULTS_MAX = 100;
export const ZMcpListResultsInput = z.object({
  list_id: ZListId,
  after_row: z.number().int().min(0, { message: 'after_row is a row number, 0 or more' }).default(0).describe('Answer the rows after this row number (0 for the first page; then the last row_number of the previous page)'),
  limit: z
    .number()
    .int()
    .min(1, { message: 'limit is at least 1' })
    .max(MCP_LIST_RESULTS_MAX, { message: `limit is at most ${MCP_LIST_RESULTS_MAX}` })
    .default(25)
    .describe(`How many rows (1–${MCP_LIST_RESULTS_MAX}, default 25)`),
});
export type TMcpListResultsInput = z.output<typeof ZMcpListResultsInput>;

export const ZMcpCreditsInput = z.object({});
