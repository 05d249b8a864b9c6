/** Compares dotted numeric versions ("31.3.1"); missing parts count as 0. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map((p) => Number.parseInt(p, 10) || 0);
  const pb = b.split('.').map((p) => Number.parseInt(p, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i += 1) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

/** True when the client announced a version lower than the minimum (no header = not checked). */
export function isVersionOutdated(clientVersion: string | undefined, minVersion: string): boolean {
  if (!clientVersion) return false;
  if (!/^\d+(\.\d+)*$/.test(clientVersion.trim())) return true;
  return compareVersions(clientVersion.trim(), minVersion) < 0;
}
