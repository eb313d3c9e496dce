import type { ApiVersionStatus } from './auth.js';

export type VersionVerdict = { status: ApiVersionStatus; severity: 'none' | 'warning' | 'critical' };

function parse(v: string): [number, number, number] | null {
  const m = /^v?(\d+)\.(\d+)\.(\d+)$/.exec(v.trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
}

/**
 * Compares the client's API version with the server's: another major is
 * critical; a lower client minor is deprecated (warning); a higher client minor is critical; a lower patch
 * is compatible. No header at all is 'unknown' and treated as compatible.
 */
export function compareApiVersions(client: string | undefined, server: string): VersionVerdict {
  if (!client) return { status: 'unknown', severity: 'none' };
  const c = parse(client);
  const s = parse(server);
  if (!c || !s) return { status: 'unsupported', severity: 'critical' };
  if (c[0] !== s[0]) return { status: 'mismatch', severity: 'critical' };
  if (c[1] < s[1]) return { status: 'deprecated', severity: 'warning' };
  if (c[1] > s[1]) return { status: 'mismatch', severity: 'critical' };
  return { status: 'compatible', severity: 'none' };
}
