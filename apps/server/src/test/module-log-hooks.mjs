// Module hooks (registered by module-log.mjs): appends the URL of every ES module resolved in the process to a file.
import { appendFileSync } from 'node:fs';

let logFile = '';

export function initialize(data) {
  logFile = data.logFile;
}

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  appendFileSync(logFile, `${resolved.url}\n`);
  return resolved;
}
