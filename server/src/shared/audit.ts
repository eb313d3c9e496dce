import type { Executor } from '../platform/db/database.js';
import { entryHash, GENESIS_HASH, type ChainedFields } from './audit-hash.js';

type AuditActor = { id: number; name: string; email: string } | null;

type AuditEntry = {
  organizationId: string | null;
  actor: AuditActor;
  action: string;
  targetTable?: string | null;
  targetId?: string | number | null;
  details?: Record<string, unknown>;
  ipAddress?: string | null;
};

/** Events that belong to no organization (a failed sign-in for an unknown address) share one chain. */
export const SYSTEM_CHAIN = 'system';
export { entryHash, GENESIS_HASH, type ChainedFields } from './audit-hash.js';

/**
 * Appends an audit entry inside the caller's transaction, so the change and its record commit together.
 * The chain head row is locked for the rest of the transaction, which keeps each organization's chain a
 * single line even under concurrent writers.
 */
async function appendAudit(trx: Executor, entry: AuditEntry): Promise<{ id: string; hash: string }> {
  const chainKey = entry.organizationId ?? SYSTEM_CHAIN;
  await trx
    .insertInto('auditChainHeads')
    .values({ chainKey, lastSeq: 0, lastHash: GENESIS_HASH })
    .onConflict((oc) => oc.column('chainKey').doNothing())
    .execute();
  const head = await trx
    .selectFrom('auditChainHeads')
    .select(['lastSeq', 'lastHash'])
    .where('chainKey', '=', chainKey)
    .forUpdate()
    .executeTakeFirstOrThrow();
  const seq = String(BigInt(head.lastSeq) + 1n);
  // Millisecond precision so that the stored timestamp reads back exactly as hashed.
  const createdAt = new Date(Math.floor(Date.now()));
  const fields: ChainedFields = {
    chainKey,
    seq,
    organizationId: entry.organizationId,
    actorId: entry.actor?.id ?? null,
    actorName: entry.actor?.name ?? null,
    actorEmail: entry.actor?.email ?? null,
    action: entry.action,
    targetTable: entry.targetTable ?? null,
    targetId: entry.targetId == null ? null : String(entry.targetId),
    details: JSON.parse(JSON.stringify(entry.details ?? {})) as Record<string, unknown>,
    ipAddress: entry.ipAddress ?? null,
    createdAt,
  };
  const hash = entryHash(head.lastHash, fields);
  const row = await trx
    .insertInto('auditLogs')
    .values({ ...fields, details: JSON.stringify(fields.details), prevHash: head.lastHash, hash })
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx.updateTable('auditChainHeads').set({ lastSeq: seq, lastHash: hash }).where('chainKey', '=', chainKey).execute();
  return { id: row.id, hash };
}

/** A person as the audit log records them: their organization's chain, their id, name and address. */
export type AuditUser = { id: number; fullName: string; email: string; organizationId: string; apiTokenId?: string };
/** Who an entry is by when it is not a known person: the organization's chain and no actor (a background job). */
export type AuditOrigin = { organizationId: string | null; actor: AuditActor };
/** What an entry is about: a row of a table (its id null while unknown), or nothing. */
type AuditTarget = { table: string; id: string | number | null } | null;
/** Appends one entry by the bound actor from the bound address, in the caller's transaction. */
export type Audit = (
  trx: Executor,
  action: string,
  target: AuditTarget,
  details?: Record<string, unknown>,
) => Promise<{ id: string; hash: string }>;

/**
 * Binds the audit append to who acts and from where, so each change records its entry in one line:
 * `const audit = auditFor(auth.user, meta)` then `await audit(trx, 'ACTION', { table: 'users', id }, details)`.
 * A person's entries go to their organization's chain; `null` (an address nobody has) goes to the system chain.
 * `from` is the request's address; a background job passes none.
 */
export function auditFor(by: AuditUser | AuditOrigin | null, from: { ip: string | null } | null = null): Audit {
  const origin: AuditOrigin =
    by === null
      ? { organizationId: null, actor: null }
      : 'actor' in by
        ? by
        : { organizationId: by.organizationId, actor: { id: by.id, name: by.fullName, email: by.email } };
  // A person acting through an API token: every entry of theirs names the token.
  const tokenId = by !== null && 'apiTokenId' in by && typeof by.apiTokenId === 'string' ? by.apiTokenId : undefined;
  return (trx, action, target, details = {}) =>
    appendAudit(trx, {
      ...origin,
      action,
      targetTable: target?.table ?? null,
      targetId: target?.id ?? null,
      details: tokenId === undefined ? details : { ...details, apiTokenId: tokenId },
      ipAddress: from?.ip ?? null,
    });
}

export type ChainVerdict = { ok: true; entries: number } | { ok: false; entries: number; brokenAtSeq: string; reason: string };

/** Walks one chain from the start and reports the first entry whose hash or link does not hold. */
export async function verifyChain(db: Executor, chainKey: string): Promise<ChainVerdict> {
  const rows = await db.selectFrom('auditLogs').selectAll().where('chainKey', '=', chainKey).orderBy('seq').execute();
  let prev = GENESIS_HASH;
  let expectedSeq = 1n;
  for (const r of rows) {
    if (BigInt(r.seq) !== expectedSeq)
      return { ok: false, entries: rows.length, brokenAtSeq: String(expectedSeq), reason: 'missing entry' };
    if (r.prevHash !== prev) return { ok: false, entries: rows.length, brokenAtSeq: r.seq, reason: 'link broken' };
    const h = entryHash(prev, { ...r, createdAt: new Date(r.createdAt) });
    if (h !== r.hash) return { ok: false, entries: rows.length, brokenAtSeq: r.seq, reason: 'entry altered' };
    prev = r.hash;
    expectedSeq++;
  }
  const head = await db.selectFrom('auditChainHeads').select(['lastSeq', 'lastHash']).where('chainKey', '=', chainKey).executeTakeFirst();
  if (head && (head.lastHash !== prev || BigInt(head.lastSeq) !== expectedSeq - 1n)) {
    return { ok: false, entries: rows.length, brokenAtSeq: String(head.lastSeq), reason: 'entries removed from the end' };
  }
  return { ok: true, entries: rows.length };
}

/** Where an entry stands in its chain: its sequence number and its hash (a certificate quotes them). */
export type ChainPosition = { sequence: number; hash: string };

/**
 * The chain position of the newest entry of an organization's chain with this action about this target, or null
 * when there is none. A certificate names the entry its event recorded, so that it can be written again (after a
 * crash) with the same chain head.
 */
export async function latestEntryPosition(
  db: Executor,
  organizationId: string,
  action: string,
  target: { table: string; id: string },
): Promise<ChainPosition | null> {
  const row = await db
    .selectFrom('auditLogs')
    .select(['seq', 'hash'])
    .where('chainKey', '=', organizationId)
    .where('organizationId', '=', organizationId)
    .where('action', '=', action)
    .where('targetTable', '=', target.table)
    .where('targetId', '=', target.id)
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? { sequence: Number(row.seq), hash: row.hash } : null;
}
