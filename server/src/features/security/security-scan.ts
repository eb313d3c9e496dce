import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  GetBucketLifecycleConfigurationCommand,
  GetBucketPolicyStatusCommand,
  GetBucketVersioningCommand,
  GetPublicAccessBlockCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { LIMITS, type ScanTargetType } from '@strongroom/contracts';
import type { AppContext } from '../../shared/context.js';
import { cookieOptions } from '../sessions/index.js';
import type { Advisory } from './security-advisories.js';
import {
  connectionSsl,
  currentRole,
  installedExtensions,
  serverVersion,
  tenantTablesRls,
  type FindingValues,
} from './security-tooling.repository.js';

/**
 * What each vulnerability scan target looks at. Every check reads the running installation (its answers, its
 * configuration, its database, its object store); nothing is assumed. A check that cannot read its facts says so
 * as an INFO finding instead of passing silently.
 */

/** The headers of one answer of this server, asked of itself (no network involved). */
export type HttpProbe = () => Promise<Record<string, string | string[] | number | undefined>>;

export type ScanDeps = { probe: HttpProbe; advisories: Advisory[]; installedVersion: (pkg: string) => Promise<string | null> };

const finding = (
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

function header(headers: Record<string, unknown>, name: string): string | null {
  const v = headers[name.toLowerCase()];
  if (v === undefined || v === null) return null;
  return Array.isArray(v) ? v.join(', ') : String(v);
}

function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || h.startsWith('127.') || h.endsWith('.localhost');
}

// ---------------------------------------------------------------- versions

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

// ---------------------------------------------------------------- APPLICATION

async function scanApplication(ctx: AppContext, deps: ScanDeps): Promise<FindingValues[]> {
  const out: FindingValues[] = [];
  const https = ctx.config.appUrl.startsWith('https://');

  // Security headers of a real answer.
  try {
    const h = await deps.probe();
    const csp = header(h, 'content-security-policy');
    if (!csp) {
      out.push(
        finding(
          'CSP_MISSING',
          'HIGH',
          'No Content-Security-Policy',
          'Answers carry no Content-Security-Policy header.',
          'Send a Content-Security-Policy that allows scripts only from Strongroom itself.',
        ),
      );
    } else {
      const scriptSrc = /script-src([^;]*)/.exec(csp)?.[1] ?? /default-src([^;]*)/.exec(csp)?.[1] ?? '';
      if (/'unsafe-inline'|'unsafe-eval'/.test(scriptSrc)) {
        out.push(
          finding(
            'CSP_UNSAFE_SCRIPT',
            'MEDIUM',
            'Content-Security-Policy allows inline or evaluated script',
            `script-src is "${scriptSrc.trim()}".`,
            "Remove 'unsafe-inline' and 'unsafe-eval' from script-src.",
          ),
        );
      }
      if (!/frame-ancestors/.test(csp) && !header(h, 'x-frame-options')) {
        out.push(
          finding(
            'FRAMING_ALLOWED',
            'MEDIUM',
            'Pages may be framed by other sites',
            'Neither frame-ancestors nor X-Frame-Options is sent (clickjacking).',
            "Add frame-ancestors 'none' to the Content-Security-Policy.",
          ),
        );
      }
    }
    if (header(h, 'x-content-type-options')?.toLowerCase() !== 'nosniff') {
      out.push(
        finding(
          'NOSNIFF_MISSING',
          'MEDIUM',
          'X-Content-Type-Options is not nosniff',
          'Browsers may guess the type of downloaded content.',
          'Send X-Content-Type-Options: nosniff on every answer.',
        ),
      );
    }
    if (!header(h, 'referrer-policy')) {
      out.push(
        finding(
          'REFERRER_POLICY_MISSING',
          'LOW',
          'No Referrer-Policy',
          'Addresses of Strongroom pages may leak to other sites in the Referer header.',
          'Send Referrer-Policy: no-referrer.',
        ),
      );
    }
    if (https && !header(h, 'strict-transport-security')) {
      out.push(
        finding(
          'HSTS_MISSING',
          'HIGH',
          'No Strict-Transport-Security over https',
          'Browsers are not told to refuse plain http for Strongroom.',
          'Send Strict-Transport-Security with a max-age of at least 180 days.',
        ),
      );
    }
    const powered = header(h, 'x-powered-by');
    if (powered) {
      out.push(
        finding(
          'VERSION_DISCLOSED',
          'LOW',
          'The server names its software',
          `X-Powered-By: ${powered}.`,
          'Remove the X-Powered-By header.',
        ),
      );
    }
  } catch (err) {
    out.push(
      finding(
        'HEADERS_UNREADABLE',
        'INFO',
        'The security headers could not be read',
        errorText(err),
        'Run the scan again; check the server log.',
      ),
    );
  }

  // Session cookie flags, as the server sets them.
  const cookie = cookieOptions(ctx, 60);
  if (!cookie.httpOnly) {
    out.push(
      finding(
        'COOKIE_NOT_HTTPONLY',
        'HIGH',
        'The session cookie is readable by scripts',
        'The session cookie is set without HttpOnly.',
        'Set the session cookie HttpOnly.',
      ),
    );
  }
  if (!cookie.secure) {
    out.push(
      finding(
        'COOKIE_NOT_SECURE',
        https ? 'HIGH' : 'MEDIUM',
        'The session cookie may travel over plain http',
        `The session cookie is set without Secure (APP_URL is ${ctx.config.appUrl}).`,
        'Serve Strongroom over https (APP_URL https://...): the cookie is then Secure.',
      ),
    );
  }
  if (String(cookie.sameSite).toLowerCase() === 'none') {
    out.push(
      finding(
        'COOKIE_SAMESITE_NONE',
        'MEDIUM',
        'The session cookie is sent on requests from other sites',
        'SameSite=None.',
        'Use SameSite=Lax or Strict.',
      ),
    );
  }

  // Session lifetimes and the password rule.
  const { idleMinutes, absoluteHours } = ctx.config.session;
  if (idleMinutes > 60) {
    out.push(
      finding(
        'SESSION_IDLE_LONG',
        'MEDIUM',
        'Idle sessions live long',
        `A session stays signed in after ${idleMinutes} minutes without activity.`,
        'Set SESSION_IDLE_MINUTES to 60 or less (30 is usual for legal records).',
      ),
    );
  }
  if (absoluteHours > 24) {
    out.push(
      finding(
        'SESSION_ABSOLUTE_LONG',
        'LOW',
        'Sessions last more than a day',
        `A session may last ${absoluteHours} hours before a new sign-in.`,
        'Set SESSION_ABSOLUTE_HOURS to 24 or less.',
      ),
    );
  }
  if (LIMITS.passwordMin < 8) {
    out.push(
      finding(
        'PASSWORD_SHORT',
        'HIGH',
        'Short passwords are accepted',
        `Passwords of ${LIMITS.passwordMin} characters are accepted.`,
        'Require at least 8 characters (with a second factor) or 15 without.',
      ),
    );
  } else {
    out.push(
      finding(
        'PASSWORD_POLICY',
        'INFO',
        'Password rule',
        `Passwords of ${LIMITS.passwordMin} to ${LIMITS.passwordMax} characters, with a second factor required for every account.`,
        'None.',
      ),
    );
  }

  // Dependencies against the advisories shipped with the release.
  const packages = [...new Set(deps.advisories.map((a) => a.package))];
  let checked = 0;
  for (const pkg of packages) {
    const version = await deps.installedVersion(pkg);
    if (!version) continue;
    checked++;
    for (const advisory of deps.advisories.filter((a) => a.package === pkg && isAffected(version, a))) {
      const fixed = advisory.ranges.find(
        (r) => compareVersions(version, r.introduced) >= 0 && compareVersions(version, r.fixed) < 0,
      )!.fixed;
      out.push(
        finding(
          'DEPENDENCY_ADVISORY',
          advisory.severity,
          `${pkg} ${version}: ${advisory.id}`,
          advisory.summary,
          `Upgrade ${pkg} to ${fixed} or later.`,
        ),
      );
    }
  }
  out.push(
    finding(
      'DEPENDENCIES_CHECKED',
      'INFO',
      'Dependencies checked',
      `${checked} installed packages compared with ${deps.advisories.length} known advisories.`,
      'None.',
    ),
  );
  return out;
}

// ---------------------------------------------------------------- DATABASE

/** Extensions that reach outside the database (files, other servers) or run untrusted languages. */
const RISKY_EXTENSIONS = ['adminpack', 'dblink', 'file_fdw', 'postgres_fdw', 'plperlu', 'plpythonu', 'plpython3u', 'pltclu', 'lo'];
/** The oldest PostgreSQL major version still receiving security fixes. */
const OLDEST_SUPPORTED_POSTGRES = 14;

async function scanDatabase(ctx: AppContext): Promise<FindingValues[]> {
  const out: FindingValues[] = [];
  const embedded = ctx.dbKind === 'pglite';
  if (embedded) {
    out.push(
      finding(
        'DATABASE_EMBEDDED',
        'INFO',
        'Embedded database',
        'Strongroom runs on its embedded PostgreSQL (PGlite) in the data directory: no network connection, no roles, no TLS to check. Its safety is the data directory\u2019s permissions and backups.',
        'Use PostgreSQL (DATABASE_URL) for several users or more than one server process.',
      ),
    );
  }
  const version = await serverVersion(ctx.db);
  const major = Number.parseInt(version, 10);
  if (!embedded && major < OLDEST_SUPPORTED_POSTGRES) {
    out.push(
      finding(
        'POSTGRES_UNSUPPORTED',
        'HIGH',
        'PostgreSQL version without security fixes',
        `The server runs PostgreSQL ${version}.`,
        `Upgrade to PostgreSQL ${OLDEST_SUPPORTED_POSTGRES} or later.`,
      ),
    );
  } else {
    out.push(finding('POSTGRES_VERSION', 'INFO', 'PostgreSQL version', `PostgreSQL ${version}.`, 'None.'));
  }

  const extensions = await installedExtensions(ctx.db);
  const risky = extensions.filter((e) => RISKY_EXTENSIONS.includes(e.name));
  if (risky.length > 0) {
    out.push(
      finding(
        'RISKY_EXTENSIONS',
        'MEDIUM',
        'Extensions that reach outside the database',
        `Installed: ${risky.map((e) => `${e.name} ${e.version}`).join(', ')}.`,
        'Drop the extensions Strongroom does not need.',
      ),
    );
  }
  out.push(
    finding('EXTENSIONS', 'INFO', 'Installed extensions', extensions.map((e) => `${e.name} ${e.version}`).join(', ') || 'none', 'None.'),
  );

  if (!embedded) {
    const role = await currentRole(ctx.db);
    if (role.superuser) {
      out.push(
        finding(
          'SUPERUSER_CONNECTION',
          'HIGH',
          'Strongroom connects as a superuser',
          `Role ${role.name} is a superuser: a flaw in the application would own the whole database server.`,
          'Connect as a role that owns only the Strongroom database, without SUPERUSER.',
        ),
      );
    } else {
      if (role.bypassRls)
        out.push(
          finding(
            'ROLE_BYPASSES_RLS',
            'MEDIUM',
            'The role bypasses row-level security',
            `Role ${role.name} has BYPASSRLS.`,
            'Remove BYPASSRLS from the role.',
          ),
        );
      if (role.createRole)
        out.push(
          finding(
            'ROLE_CREATES_ROLES',
            'MEDIUM',
            'The role can create roles',
            `Role ${role.name} has CREATEROLE.`,
            'Remove CREATEROLE from the role.',
          ),
        );
    }
  }

  const tables = await tenantTablesRls(ctx.db);
  const withoutRls = tables.filter((t) => !t.rls);
  if (withoutRls.length > 0) {
    out.push(
      finding(
        'RLS_OFF',
        'LOW',
        'Organization tables without row-level security',
        `${withoutRls.length} of ${tables.length} tables holding organization data have no row-level security (${withoutRls
          .slice(0, 8)
          .map((t) => t.table)
          .join(
            ', ',
          )}${withoutRls.length > 8 ? ', ...' : ''}). Every Strongroom query is scoped by organization; row-level security would be a second wall.`,
        'Enable row-level security with a policy on organization_id as defence in depth.',
      ),
    );
  }

  if (!embedded) {
    const ssl = await connectionSsl(ctx.db);
    const host = databaseHost(ctx.config.databaseUrl);
    if (ssl === false) {
      const local = host === null || isLoopbackHost(host);
      out.push(
        finding(
          'DATABASE_TLS_OFF',
          local ? 'LOW' : 'HIGH',
          'The database connection is not encrypted',
          local
            ? `The connection to ${host ?? 'a local socket'} is not encrypted; it does not leave this machine.`
            : `Queries and answers travel in clear to ${host}.`,
          'Require TLS on the database connection (sslmode=verify-full in DATABASE_URL).',
        ),
      );
    } else if (ssl === null) {
      out.push(finding('DATABASE_TLS_UNKNOWN', 'INFO', 'Connection encryption unknown', 'pg_stat_ssl could not be read.', 'None.'));
    }
  }
  return out;
}

function databaseHost(url: string | undefined): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.hostname || null;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------- INFRASTRUCTURE

async function scanInfrastructure(ctx: AppContext): Promise<FindingValues[]> {
  const out: FindingValues[] = [];
  const status = await ctx.store.writeOnceStatus();
  if (!status.enforced) {
    out.push(
      finding(
        'WRITE_ONCE_OFF',
        'CRITICAL',
        'Vaulted files are not write-once',
        status.detail,
        'Enable Object Lock and versioning on the bucket (or use the local store) before vaulting.',
      ),
    );
  } else {
    out.push(finding('WRITE_ONCE', 'INFO', 'Write-once storage', status.detail, 'None.'));
  }
  if (status.store === 's3' && ctx.config.s3) {
    out.push(...(await s3Facts(ctx)));
  } else {
    out.push(...(await localStoreFacts(ctx.config.dataDir)));
  }
  return out;
}

async function s3Facts(ctx: AppContext): Promise<FindingValues[]> {
  const s3 = ctx.config.s3!;
  const out: FindingValues[] = [];
  const client = new S3Client({
    region: s3.region,
    endpoint: s3.endpoint,
    forcePathStyle: s3.forcePathStyle,
    credentials: s3.accessKeyId && s3.secretAccessKey ? { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } : undefined,
  });
  const Bucket = s3.bucket;
  try {
    try {
      const v = await client.send(new GetBucketVersioningCommand({ Bucket }));
      if (v.Status !== 'Enabled')
        out.push(
          finding(
            'VERSIONING_OFF',
            'HIGH',
            'Bucket versioning is off',
            `Versioning of ${Bucket} is ${v.Status ?? 'never enabled'}.`,
            'Enable versioning (Object Lock needs it).',
          ),
        );
    } catch (err) {
      out.push(
        finding(
          'VERSIONING_UNKNOWN',
          'INFO',
          'Bucket versioning could not be read',
          errorText(err),
          'Allow s3:GetBucketVersioning to Strongroom.',
        ),
      );
    }
    try {
      const pab = await client.send(new GetPublicAccessBlockCommand({ Bucket }));
      const c = pab.PublicAccessBlockConfiguration;
      const all = c?.BlockPublicAcls && c.BlockPublicPolicy && c.IgnorePublicAcls && c.RestrictPublicBuckets;
      if (!all)
        out.push(
          finding(
            'PUBLIC_ACCESS_NOT_BLOCKED',
            'HIGH',
            'Public access is not fully blocked',
            `The public access block of ${Bucket} is ${JSON.stringify(c ?? {})}.`,
            'Turn on all four public access block settings.',
          ),
        );
    } catch (err) {
      out.push(
        errorName(err) === 'NoSuchPublicAccessBlockConfiguration'
          ? finding(
              'PUBLIC_ACCESS_NOT_BLOCKED',
              'HIGH',
              'Public access is not blocked',
              `${Bucket} has no public access block.`,
              'Turn on all four public access block settings.',
            )
          : finding(
              'PUBLIC_ACCESS_UNKNOWN',
              'INFO',
              'The public access block could not be read',
              errorText(err),
              'Allow s3:GetBucketPublicAccessBlock to Strongroom.',
            ),
      );
    }
    try {
      const ps = await client.send(new GetBucketPolicyStatusCommand({ Bucket }));
      if (ps.PolicyStatus?.IsPublic)
        out.push(
          finding(
            'BUCKET_PUBLIC',
            'CRITICAL',
            'The bucket is public',
            `The policy of ${Bucket} makes it public.`,
            'Remove the public statements from the bucket policy.',
          ),
        );
    } catch (err) {
      if (errorName(err) !== 'NoSuchBucketPolicy')
        out.push(
          finding(
            'BUCKET_POLICY_UNKNOWN',
            'INFO',
            'The bucket policy status could not be read',
            errorText(err),
            'Allow s3:GetBucketPolicyStatus to Strongroom.',
          ),
        );
    }
    try {
      const lc = await client.send(new GetBucketLifecycleConfigurationCommand({ Bucket }));
      const aborts = (lc.Rules ?? []).some(
        (r) => r.Status === 'Enabled' && r.AbortIncompleteMultipartUpload?.DaysAfterInitiation !== undefined,
      );
      if (!aborts)
        out.push(
          finding(
            'LIFECYCLE_NO_ABORT',
            'LOW',
            'Unfinished uploads are never cleaned up by the bucket',
            `No enabled lifecycle rule of ${Bucket} aborts incomplete multipart uploads.`,
            'Add a lifecycle rule aborting incomplete multipart uploads after 7 days.',
          ),
        );
    } catch (err) {
      out.push(
        errorName(err) === 'NoSuchLifecycleConfiguration'
          ? finding(
              'LIFECYCLE_NO_ABORT',
              'LOW',
              'The bucket has no lifecycle rule',
              `${Bucket} has no lifecycle configuration; Strongroom's own cleanup is the only one.`,
              'Add a lifecycle rule aborting incomplete multipart uploads after 7 days.',
            )
          : finding(
              'LIFECYCLE_UNKNOWN',
              'INFO',
              'The lifecycle rules could not be read',
              errorText(err),
              'Allow s3:GetLifecycleConfiguration to Strongroom.',
            ),
      );
    }
  } finally {
    client.destroy();
  }
  return out;
}

/** The local store's directories: nobody but the server's own account should read or write them. */
async function localStoreFacts(dataDir: string): Promise<FindingValues[]> {
  const out: FindingValues[] = [];
  const dirs = [dataDir];
  try {
    for (const entry of await fs.readdir(dataDir, { withFileTypes: true }))
      if (entry.isDirectory()) dirs.push(path.join(dataDir, entry.name));
  } catch (err) {
    return [finding('DATA_DIR_UNREADABLE', 'INFO', 'The data directory could not be read', errorText(err), 'Check DATA_DIR.')];
  }
  const worldWritable: string[] = [];
  const worldReadable: string[] = [];
  for (const dir of dirs) {
    const mode = (await fs.stat(dir)).mode;
    if (mode & 0o002) worldWritable.push(dir);
    else if (mode & 0o004) worldReadable.push(dir);
  }
  if (worldWritable.length > 0) {
    out.push(
      finding(
        'DATA_DIR_WORLD_WRITABLE',
        'CRITICAL',
        'Anyone on the machine can write the stored files',
        `World-writable: ${worldWritable.join(', ')}.`,
        `chmod -R o-rwx ${dataDir}`,
      ),
    );
  }
  if (worldReadable.length > 0) {
    out.push(
      finding(
        'DATA_DIR_WORLD_READABLE',
        'MEDIUM',
        'Anyone on the machine can read the stored files',
        `World-readable: ${worldReadable.join(', ')}.`,
        `chmod -R o-rwx ${dataDir}`,
      ),
    );
  }
  out.push(
    finding(
      'LOCAL_STORE',
      'INFO',
      'Local object store',
      `Files are stored under ${dataDir}; versioning, public access and lifecycle rules are S3 settings and do not apply.`,
      'None.',
    ),
  );
  return out;
}

// ---------------------------------------------------------------- NETWORK

/**
 * A reverse-proxy entry so wide that it believes addresses on the internet at large (an IPv4 range wider than /8,
 * an IPv6 range wider than /16): anyone could then choose the address the audit log records.
 */
function trustsTooWidely(entry: string): boolean {
  const m = /\/(\d+)$/.exec(entry);
  if (!m) return false;
  const prefix = Number(m[1]);
  return entry.includes(':') ? prefix < 16 : prefix < 8;
}

async function scanNetwork(ctx: AppContext, deps: ScanDeps): Promise<FindingValues[]> {
  const out: FindingValues[] = [];
  const url = new URL(ctx.config.appUrl);
  const https = url.protocol === 'https:';
  if (!https) {
    const local = isLoopbackHost(url.hostname);
    out.push(
      finding(
        'APP_URL_NOT_HTTPS',
        local ? 'MEDIUM' : 'HIGH',
        'Strongroom is served over plain http',
        `APP_URL is ${ctx.config.appUrl}: passwords, codes and session cookies travel unencrypted${local ? ' (on this machine only)' : ''}.`,
        'Serve Strongroom over https and set APP_URL to its https address.',
      ),
    );
  }
  try {
    const h = await deps.probe();
    const hsts = header(h, 'strict-transport-security');
    if (https && !hsts) {
      out.push(
        finding(
          'HSTS_MISSING',
          'HIGH',
          'No HSTS',
          'Strict-Transport-Security is not sent.',
          'Send Strict-Transport-Security: max-age=31536000; includeSubDomains.',
        ),
      );
    } else if (https && hsts) {
      const maxAge = Number(/max-age=(\d+)/i.exec(hsts)?.[1] ?? 0);
      if (maxAge < 180 * 24 * 3600)
        out.push(
          finding('HSTS_SHORT', 'LOW', 'HSTS max-age is short', `max-age is ${maxAge} seconds.`, 'Use a max-age of at least 180 days.'),
        );
      if (!/includesubdomains/i.test(hsts))
        out.push(finding('HSTS_NO_SUBDOMAINS', 'LOW', 'HSTS leaves subdomains out', hsts, 'Add includeSubDomains.'));
    } else if (!https) {
      out.push(
        finding(
          'HSTS_NOT_POSSIBLE',
          'INFO',
          'HSTS is not sent over http',
          'Browsers ignore HSTS on plain http; it is sent once APP_URL is https.',
          'Serve over https.',
        ),
      );
    }
  } catch (err) {
    out.push(finding('HEADERS_UNREADABLE', 'INFO', 'The headers could not be read', errorText(err), 'Run the scan again.'));
  }
  const proxies = ctx.config.trustProxy;
  if (proxies === false) {
    out.push(
      finding(
        'TRUST_PROXY_UNSET',
        https ? 'MEDIUM' : 'INFO',
        'No trusted reverse proxy',
        https
          ? 'TRUST_PROXY is not set: behind a TLS-terminating proxy every request appears to come from the proxy, so the audit log and sign-in throttles record its address instead of the client\u2019s.'
          : 'TRUST_PROXY is not set: the address of the connection is taken as the client\u2019s.',
        'Set TRUST_PROXY to the address of the reverse proxy that terminates TLS.',
      ),
    );
  } else if (proxies.some(trustsTooWidely)) {
    out.push(
      finding(
        'TRUST_PROXY_EVERYONE',
        'HIGH',
        'Every address is trusted as a proxy',
        `TRUST_PROXY is ${proxies.join(', ')}: any client can set the address the audit log records.`,
        'List only the reverse proxy\u2019s own address.',
      ),
    );
  } else {
    out.push(finding('TRUST_PROXY', 'INFO', 'Trusted reverse proxies', proxies.join(', '), 'None.'));
  }
  return out;
}

// ---------------------------------------------------------------- entry

export async function scanTarget(ctx: AppContext, targetType: ScanTargetType, deps: ScanDeps): Promise<FindingValues[]> {
  switch (targetType) {
    case 'APPLICATION':
      return scanApplication(ctx, deps);
    case 'DATABASE':
      return scanDatabase(ctx);
    case 'INFRASTRUCTURE':
      return scanInfrastructure(ctx);
    case 'NETWORK':
      return scanNetwork(ctx, deps);
  }
}

function errorName(err: unknown): string | undefined {
  return err && typeof err === 'object' && 'name' in err ? String((err as { name: unknown }).name) : undefined;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
