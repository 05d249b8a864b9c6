import { bundleServer, serverNodeFlags } from '../scripts/server-bundle.mjs';

let built: Promise<string> | null = null;

/**
 * Node's arguments for a bench's server or worker process, as `npm start` runs it: its heap flags and the esbuild
 * bundle of the server (built once per bench run), so the figures carry no TypeScript transpiler.
 */
export async function serverEntry(): Promise<string[]> {
  built ??= bundleServer();
  return [...serverNodeFlags(), await built];
}
