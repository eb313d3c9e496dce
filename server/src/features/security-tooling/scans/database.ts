/**
 * The DATABASE target: the PostgreSQL version, its extensions, the role Strongroom connects as, row-level
 * security of the organization tables, and whether the connection is encrypted.
 */
import type { AppContext } from '../../../shared/context.js';
import {
  connectionSsl,
  currentRole,
  installedExtensions,
  serverVersion,
  tenantTablesRls,
  type FindingValues,
} from '../security-tooling.repository.js';
import { finding, isLoopbackHost } from './common.js';

/** Extensions that reach outside the database (files, other servers) or run untrusted languages. */
const RISKY_EXTENSIONS = ['adminpack', 'dblink', 'file_fdw', 'postgres_fdw', 'plperlu', 'plpythonu', 'plpython3u', 'pltclu', 'lo'];
/** The oldest PostgreSQL major version still receiving security fixes. */
const OLDEST_SUPPORTED_POSTGRES = 14;

export async function scanDatabase(ctx: AppContext): Promise<FindingValues[]> {
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
