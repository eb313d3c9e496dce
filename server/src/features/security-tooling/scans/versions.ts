/**
 * Versions of the packages the server runs on, compared with the ranges of the advisories shipped with it.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Advisory } from '../security-advisories.js';

/** Compares dotted versions numerically (a pre-release tag is ignored: 5.3.2-rc1 counts as 5.3.2). */
export function compareVersions(a: string, b: string): number {
  const pa = a
    .split('-')[0]!
    .split('.')
    .map((n) => Number.parseInt(n, 10) || 0);
  const pb = b
    .split('-')[0]!
    .split('.')
    .map((n) => Number.parseInt(n, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

export function isAffected(version: string, advisory: Advisory): boolean {
  return advisory.ranges.some((r) => compareVersions(version, r.introduced) >= 0 && compareVersions(version, r.fixed) < 0);
}

/**
 * The version of a package as installed where the server runs: undici is the one built into Node.js (its fetch);
 * any other is read from the nearest node_modules above this module (the source tree or the built bundle) or the
 * working directory. null: not installed.
 */
export async function installedVersion(pkg: string): Promise<string | null> {
  if (pkg === 'undici' && process.versions.undici) return process.versions.undici;
  const starts = [path.dirname(fileURLToPath(import.meta.url)), process.cwd()];
  for (const start of starts) {
    let dir = start;
    for (;;) {
      try {
        const raw = await fs.readFile(path.join(dir, 'node_modules', pkg, 'package.json'), 'utf8');
        const version = (JSON.parse(raw) as { version?: unknown }).version;
        if (typeof version === 'string') return version;
      } catch {
        // not here: look one directory up
      }
      const parent = path.dirname(dir);
      if (parent === dir) break;
      dir = parent;
    }
  }
  return null;
}
