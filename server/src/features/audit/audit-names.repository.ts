/**
 * The current names an audit page's entries are about, for their sentences: the matter's name, the file's or
 * folder's, the person's. An entry that recorded a name at the time keeps it (describeAuditEntry prefers the
 * recorded one); these fill in what an entry did not record. Always read inside the reader's organization, so a
 * name of another organization is never answered, and with one statement per table for the whole page.
 */
import type { Executor } from '../../platform/db/database.js';
import type { AuditLogRow } from './audit.repository.js';

export type EntryNames = { matter: string | null; target: string | null };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isUuid = (v: unknown): v is string => typeof v === 'string' && UUID.test(v);
/** A person is recorded by public id (team changes) or by number (their own settings). */
const isNumber = (v: unknown): v is string => typeof v === 'string' && /^[1-9]\d{0,9}$/.test(v);

function matterIdOf(r: AuditLogRow): string | null {
  if (r.targetTable === 'matters' && isUuid(r.targetId)) return r.targetId;
  const d = r.details as Record<string, unknown> | null;
  return d && isUuid(d.matterId) ? d.matterId : null;
}

/** Names by entry id, for the entries of one page. */
export async function namesOfEntries(db: Executor, organizationId: string, rows: AuditLogRow[]): Promise<Map<string, EntryNames>> {
  const nodeIds = new Set<string>();
  const userPublicIds = new Set<string>();
  const userIds = new Set<number>();
  for (const r of rows) {
    if (r.targetTable === 'nodes' && isUuid(r.targetId)) nodeIds.add(r.targetId);
    if (r.targetTable === 'users' && isUuid(r.targetId)) userPublicIds.add(r.targetId);
    if (r.targetTable === 'users' && isNumber(r.targetId)) userIds.add(Number(r.targetId));
  }
  const nodes = nodeIds.size
    ? await db
        .selectFrom('nodes')
        .select(['id', 'name', 'matterId'])
        .where('organizationId', '=', organizationId)
        .where('id', 'in', [...nodeIds])
        .execute()
    : [];
  const nodeById = new Map(nodes.map((n) => [n.id, n]));
  const matterIds = new Set<string>(nodes.map((n) => n.matterId));
  for (const r of rows) {
    const id = matterIdOf(r);
    if (id) matterIds.add(id);
  }
  const [matters, users] = await Promise.all([
    matterIds.size
      ? db
          .selectFrom('matters')
          .select(['id', 'matterName'])
          .where('organizationId', '=', organizationId)
          .where('id', 'in', [...matterIds])
          .execute()
      : [],
    userPublicIds.size || userIds.size
      ? db
          .selectFrom('users')
          .select(['id', 'publicId', 'fullName'])
          .where('organizationId', '=', organizationId)
          .where((eb) =>
            eb.or([
              ...(userPublicIds.size ? [eb('publicId', 'in', [...userPublicIds])] : []),
              ...(userIds.size ? [eb('id', 'in', [...userIds])] : []),
            ]),
          )
          .execute()
      : [],
  ]);
  const matterName = new Map(matters.map((m) => [m.id, m.matterName]));
  const userName = new Map<string, string>();
  for (const u of users) {
    userName.set(u.publicId, u.fullName);
    userName.set(String(u.id), u.fullName);
  }
  const out = new Map<string, EntryNames>();
  for (const r of rows) {
    const node = r.targetTable === 'nodes' && r.targetId ? nodeById.get(r.targetId) : undefined;
    const matterId = matterIdOf(r) ?? node?.matterId ?? null;
    const matter = matterId ? (matterName.get(matterId) ?? null) : null;
    let target: string | null = null;
    if (node) target = node.name;
    else if (r.targetTable === 'matters') target = matter;
    else if (r.targetTable === 'users' && r.targetId) target = userName.get(r.targetId) ?? null;
    out.set(r.id, { matter, target });
  }
  return out;
}
