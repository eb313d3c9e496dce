/**
 * Tenant scope of queries. Every table that holds an organization's data has an `organization_id`; a query that
 * reads or changes such a table names the organization, so that (a) one organization's request can never touch
 * another's rows by an id alone, and (b) the tables can be distributed by organization (Citus) with every
 * request routed to one shard. The few queries that work across organizations by design (the background
 * sweeps, a link's token looked up before its organization is known) are listed in TENANT_SCOPE_EXCEPTIONS with
 * why. The tables of people and sign-in (users, sessions, recovery codes, API tokens, single sign-on’s domains,
 * identities and states, passkeys and their challenges) are not distributed: users is a reference table and the
 * sign-in tables stay on the coordinator (docs/operations.md, Sharding by organization).
 *
 * `unscopedTables` looks at Kysely's operation tree (after the camel-case plugin, so columns are snake_case):
 * each SELECT, UPDATE, DELETE and INSERT, at every depth (subqueries, CTEs), that names a tenant table must
 * mention `organization_id` in its own conditions (WHERE, JOIN … ON, or the columns it inserts). A join of two
 * tenant tables must join on `organization_id` too, since co-located shards only join on it.
 */
import type { KyselyPlugin, OperationNode, PluginTransformQueryArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';

type AnyNode = OperationNode & Record<string, unknown>;

const QUERY_KINDS = new Set(['SelectQueryNode', 'UpdateQueryNode', 'DeleteQueryNode', 'InsertQueryNode']);

function isNode(value: unknown): value is AnyNode {
  return typeof value === 'object' && value !== null && typeof (value as { kind?: unknown }).kind === 'string';
}

function children(node: AnyNode): AnyNode[] {
  const out: AnyNode[] = [];
  for (const value of Object.values(node)) {
    if (Array.isArray(value)) for (const v of value) if (isNode(v)) out.push(v);
    if (isNode(value)) out.push(value);
  }
  return out;
}

/** The table a FROM/JOIN/INTO item names (through an alias), or null for a subquery or function. */
function tableName(node: AnyNode | undefined): string | null {
  if (!node) return null;
  if (node.kind === 'AliasNode') return tableName(node.node as AnyNode);
  if (node.kind === 'TableNode') {
    const ident = (node.table as AnyNode).identifier as { name: string };
    return ident.name;
  }
  return null;
}

/** Whether `organization_id` is named anywhere under `node` (a column, a reference, a raw fragment). */
function mentionsOrganization(node: AnyNode | undefined): boolean {
  if (!node) return false;
  if (node.kind === 'IdentifierNode' && node.name === 'organization_id') return true;
  if (node.kind === 'RawNode' && (node.sqlFragments as string[]).some((f) => f.includes('organization_id'))) return true;
  return children(node).some(mentionsOrganization);
}

function directTables(query: AnyNode): { from: string[]; joins: { table: string; on: AnyNode | undefined }[] } {
  const from: string[] = [];
  const fromNode = query.from as AnyNode | undefined;
  if (fromNode) for (const f of (fromNode.froms as AnyNode[]) ?? []) from.push(tableName(f) ?? '');
  if (query.kind === 'UpdateQueryNode') from.push(tableName(query.table as AnyNode) ?? '');
  if (query.kind === 'InsertQueryNode') from.push(tableName(query.into as AnyNode) ?? '');
  const using = query.using as AnyNode | undefined;
  if (using) for (const t of (using.tables as AnyNode[]) ?? []) from.push(tableName(t) ?? '');
  const joins = ((query.joins as AnyNode[] | undefined) ?? []).map((j) => ({
    table: tableName(j.table as AnyNode) ?? '',
    on: j.on as AnyNode | undefined,
  }));
  return { from: from.filter(Boolean), joins: joins.filter((j) => j.table) };
}

/** The tenant tables that a query (at any depth) reads or changes without naming the organization. */
export function unscopedTables(root: AnyNode, tenantTables: ReadonlySet<string>): string[] {
  const found: string[] = [];
  const visit = (node: AnyNode) => {
    if (QUERY_KINDS.has(node.kind)) checkQuery(node, tenantTables, found);
    for (const child of children(node)) visit(child);
  };
  visit(root);
  return [...new Set(found)];
}

function checkQuery(query: AnyNode, tenantTables: ReadonlySet<string>, found: string[]): void {
  const { from, joins } = directTables(query);
  const where = query.where as AnyNode | undefined;
  let scoped = mentionsOrganization(where);
  if (query.kind === 'InsertQueryNode') {
    // An insert names the organization in its columns, or takes its rows from a query that is checked itself.
    scoped =
      ((query.columns as AnyNode[] | undefined) ?? []).some(mentionsOrganization) ||
      (isNode(query.values) && (query.values as AnyNode).kind === 'SelectQueryNode');
  }
  const tenantJoins = joins.filter((j) => tenantTables.has(j.table));
  // A condition on a joined table's organization scopes the query as well as one in WHERE.
  if (!scoped) scoped = tenantJoins.some((j) => mentionsOrganization(j.on)) && from.every((t) => !tenantTables.has(t));
  for (const t of from) if (tenantTables.has(t) && !scoped) found.push(t);
  for (const j of tenantJoins) {
    const withTenant = from.some((t) => tenantTables.has(t)) || tenantJoins.length > 1;
    if (!scoped) found.push(j.table);
    else if (withTenant && !mentionsOrganization(j.on)) found.push(`${j.table} (joined without organization_id)`);
  }
}

/** One query that broke the rule: the tables, and the repository function that built it (from the stack). */
export type TenantScopeViolation = { tables: string[]; caller: string; sql: string };

/**
 * The product function that built the query: the first frame in server/src that is not a test's. Null when a
 * test queried the database itself (tests may look at anything).
 */
function callerOf(stack: string | undefined): string | null {
  for (const frame of (stack ?? '').split('\n').slice(1)) {
    if (frame.includes('node_modules') || frame.includes('tenant-scope')) continue;
    const match = /at (?:async )?(?:Module\.)?([^\s(]+)? ?\(?.*server\/(src|test)\/(.*?\.ts)/.exec(frame);
    if (!match) continue;
    if (match[2] === 'test' || match[3]!.endsWith('.test.ts')) return null;
    return `${match[3]}:${match[1] ?? '<anonymous>'}`;
  }
  return null;
}

/** A Kysely plugin that records every unscoped query it sees (it never changes a query). */
export class TenantScopeRecorder implements KyselyPlugin {
  readonly violations: TenantScopeViolation[] = [];
  constructor(private readonly tenantTables: ReadonlySet<string>) {}

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const tables = unscopedTables(args.node as AnyNode, this.tenantTables);
    if (!tables.length) return args.node;
    const caller = callerOf(new Error().stack);
    if (caller) this.violations.push({ tables, caller, sql: args.node.kind });
    return args.node;
  }

  async transformResult(args: { result: QueryResult<UnknownRow> }): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

/** Tables that hold an organization_id but are not distributed by it (see the module comment). */
export const NOT_DISTRIBUTED = new Set([
  'users',
  'sessions',
  'mfa_recovery_codes',
  'api_tokens',
  'organization_sso_domains',
  'user_identities',
  'sso_login_states',
  'passkeys',
  'webauthn_challenges',
]);

/**
 * Product functions that read a distributed table across organizations on purpose, with the reason. On a
 * distributed database they run on every shard.
 */
const TENANT_SCOPE_EXCEPTIONS: Record<string, string> = {
  'features/audit/audit.repository.ts:organizationsToSign': 'the signing sweep finds every organization whose chain grew',
  'features/audit/audit-search.repository.ts:lockBackfillProgress':
    'the search text backfill reads the newest entry id of the whole audit log, its one pass by id ranges',
  'features/audit/audit-search.repository.ts:fillSearchText':
    'the search text backfill fills every organization’s entries of one id range at once (search_text only)',
  'features/undo/undo.repository.ts:sweepExpiredEntries': 'the sweep removes expired undo entries of every organization',
  'features/uploads/uploads.repository.ts:deadUploadsSince': 'the clean-up sweep over every organization’s ended uploads',
  'features/uploads/uploads.repository.ts:expiredPendingUploads': 'the clean-up sweep over every organization’s expired uploads',
  'features/uploads/uploads.repository.ts:purgeFinishedUploads': 'the clean-up sweep over every organization’s finished uploads',
  'features/nodes/bin.repository.ts:dueBinEntries': 'the recycle bin’s daily purge over every organization',
  'features/notifications/notifications.repository.ts:organizationsWithAlerts': 'the daily reminder sweep finds the organizations to mail',
  'features/vault/vault-queries.repository.ts:dueForVerification':
    'continuous verification picks the oldest-checked objects of every organization',
  'features/invitations/invitations.repository.ts:findOpenInvitation':
    'an invitation link carries only its token; the organization is learned from the row',
  'features/invitations/invitations.repository.ts:lockOpenInvitation': 'accepting an invitation: the link carries only its token',
  'features/approvals/approvals.repository.ts:lockExpiredRequests': 'the expiry sweep over every organization’s pending requests',
  'features/approvals/approvals.repository.ts:unexecutedApprovals':
    'the sweep finds approved requests of every organization that a dead process did not carry out',
  'shared/audit.ts:verifyChain': 'reads one chain by its key, which is the organization’s id',
};

/** The violations of a run that no exception covers, one line each. */
export function unexcused(violations: TenantScopeViolation[]): string[] {
  const lines = violations
    .filter((v) => !(v.caller in TENANT_SCOPE_EXCEPTIONS))
    .map((v) => `${v.caller} (${v.sql}): ${v.tables.join(', ')}`);
  return [...new Set(lines)];
}
