/**
 * What every scan target shares: the findings it reports, the answer of this server it reads, and how a fact
 * that cannot be read is named.
 */
import type { Advisory } from '../security-advisories.js';
import type { FindingValues } from '../security-tooling.repository.js';

/** The headers of one answer of this server, asked of itself (no network involved). */
export type HttpProbe = () => Promise<Record<string, string | string[] | number | undefined>>;

export type ScanDeps = { probe: HttpProbe; advisories: Advisory[]; installedVersion: (pkg: string) => Promise<string | null> };

export const finding = (
  checkName: string,
  severity: FindingValues['severity'],
  title: string,
  detail: string,
  recommendation: string,
): FindingValues => ({
  checkName,
  severity,
  title,
  detail,
  recommendation,
});

export function header(headers: Record<string, unknown>, name: string): string | null {
  const v = headers[name.toLowerCase()];
  if (v === undefined || v === null) return null;
  return Array.isArray(v) ? v.join(', ') : String(v);
}

export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || h.startsWith('127.') || h.endsWith('.localhost');
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
