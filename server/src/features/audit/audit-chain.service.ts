/**
 * The audit chain's integrity: verifying an organization's whole chain, and signing its head.
 *
 * Each entry's hash covers the previous entry's hash and every recorded field, so a changed, removed or reordered
 * entry breaks the chain at that point. What the chain alone cannot show is the loss of its newest entries, or a
 * table rewritten from scratch with hashes computed anew. So the chain head is signed with the installation's
 * Ed25519 key and stored in the object store under a write-once lock of SIGNED_HEAD_RETENTION_YEARS
 * (audit-heads.ts): within AUDIT_HEAD_INTERVAL_SECONDS of any growth, at start, before each integrity check and
 * after each archival. audit_signed_heads records each one, but only as a pointer: the check reads the newest
 * head from the store, whose position in the chain must still hold the signed hash.
 */
import { AUDIT_LOG_MSG } from '@strongroom/contracts';
import { certificateSigner, canonicalJson } from '../../platform/signing.js';
import { entryHash, GENESIS_HASH } from '../../shared/audit-hash.js';
import type { AppContext } from '../../shared/context.js';
import type { Executor } from '../../platform/db/database.js';
import { headObjectKey, headPayload, newestStoredHead, type StoredHead } from './audit-heads.js';
import {
  chainBatch,
  chainEntryAt,
  chainHead,
  insertSignedHead,
  latestSignedHead,
  lockHeadSigning,
  organizationsToSign,
  organizationsWithChains,
  type AuditLogRow,
} from './audit.repository.js';

/** How long a signed head stays under its write-once lock: longer than any retention a firm keeps logs for. */
const SIGNED_HEAD_RETENTION_YEARS = 10;
/** Entries read per statement while verifying. */
const VERIFY_BATCH = 5000;
/** At most this many broken entries are listed (the check still counts every entry). */
const MAX_LISTED = 100;

type InvalidEntry = { id: string | null; seq: number; reason: string };
type SignedHeadSummary = { seq: number; hash: string; signedAt: string; keyId: string; objectKey: string };
export type ChainCheck = {
  isValid: boolean;
  checkedEntries: number;
  invalidEntries: InvalidEntry[];
  signedHead: SignedHeadSummary | null;
  anchor: { status: 'signed' | 'none'; message: string };
};
/** Why a head was signed (recorded with it). */
export type SigningReason = 'interval' | 'start' | 'check' | 'archival' | 'manual';

/**
 * Supplies the details of archived entries, whose details left the database for cold storage. Answers the
 * details by sequence number for the entries from..to of the chain, read from their batch and checked against
 * the batch's sha256; null when no batch holds them. Archival registers it (registerArchivedDetailsSource).
 */
export type ArchivedDetailsSource = (
  ctx: AppContext,
  organizationId: string,
  fromSeq: number,
  toSeq: number,
) => Promise<Map<number, Record<string, unknown>> | null>;
let archivedDetails: ArchivedDetailsSource | null = null;
export function registerArchivedDetailsSource(source: ArchivedDetailsSource): void {
  archivedDetails = source;
}

/** The details of the archived entries of a batch of rows (from their archive), or null when there are none. */
export async function archivedDetailsOf(
  ctx: AppContext,
  organizationId: string,
  batch: AuditLogRow[],
): Promise<Map<number, Record<string, unknown>> | null> {
  const archivedSeqs = batch.filter((r) => r.archived).map((r) => Number(r.seq));
  return archivedSeqs.length && archivedDetails
    ? archivedDetails(ctx, organizationId, Math.min(...archivedSeqs), Math.max(...archivedSeqs))
    : null;
}

function hashOf(prev: string, r: AuditLogRow, details: Record<string, unknown>): string {
  return entryHash(prev, {
    chainKey: r.chainKey,
    seq: r.seq,
    organizationId: r.organizationId,
    actorId: r.actorId,
    actorName: r.actorName,
    actorEmail: r.actorEmail,
    action: r.action,
    targetTable: r.targetTable,
    targetId: r.targetId,
    details,
    ipAddress: r.ipAddress,
    createdAt: r.createdAt instanceof Date ? r.createdAt : new Date(r.createdAt),
  });
}

function summaryOf(h: StoredHead): SignedHeadSummary {
  return { seq: h.seq, hash: h.hash, signedAt: h.signedAt, keyId: h.keyId, objectKey: h.objectKey };
}

/**
 * Walks the organization's whole chain in sequence order, in batches, and lists what does not hold; then compares
 * it with the newest signed head in the write-once store. With `signFirst` (the integrity check) the head as it
 * stands is signed before the walk, when the chain extends the newest signed head intact.
 */
export async function verifyOrganizationChain(
  ctx: AppContext,
  organizationId: string,
  opts: { signFirst?: boolean } = {},
): Promise<ChainCheck> {
  if (opts.signFirst) {
    try {
      await signChainHead(ctx, organizationId, 'check');
    } catch (err) {
      // A chain that cannot be signed is what the check below reports; a store outage leaves the older anchor.
      ctx.log.warn({ err, organizationId }, 'the audit chain head was not signed before the integrity check');
    }
  }
  const invalid: InvalidEntry[] = [];
  let invalidCount = 0;
  const flag = (e: InvalidEntry) => {
    invalidCount += 1;
    if (invalid.length < MAX_LISTED) invalid.push(e);
  };
  let prev = GENESIS_HASH;
  let expected = 1;
  let checked = 0;
  let lastHash: string | null = null;
  // The next batch is read while this one is hashed.
  let next = chainBatch(ctx.db, organizationId, 0, VERIFY_BATCH);
  for (;;) {
    const batch = await next;
    if (batch.length === 0) break;
    next = chainBatch(ctx.db, organizationId, Number(batch[batch.length - 1]!.seq), VERIFY_BATCH);
    const archived = await archivedDetailsOf(ctx, organizationId, batch);
    for (const r of batch) {
      const seq = Number(r.seq);
      if (seq > expected) {
        flag({
          id: null,
          seq: expected,
          reason: seq - expected === 1 ? `entry ${expected} is missing` : `entries ${expected} to ${seq - 1} are missing`,
        });
      } else if (r.prevHash !== prev) {
        flag({ id: r.id, seq, reason: 'link broken: the entry before it was changed, removed or moved' });
      }
      if (r.archived) {
        const details = archived?.get(seq);
        if (!details) flag({ id: r.id, seq, reason: 'archived entry: no archive batch holds its details' });
        else if (hashOf(r.prevHash, r, details) !== r.hash) flag({ id: r.id, seq, reason: 'archived entry altered' });
      } else if (hashOf(r.prevHash, r, r.details) !== r.hash) {
        flag({ id: r.id, seq, reason: 'entry altered' });
      }
      // Go on from what the entry says, so each break is reported once rather than every entry after it.
      prev = r.hash;
      expected = seq + 1;
      lastHash = r.hash;
      checked += 1;
    }
  }
  const lastSeq = expected - 1;

  const head = await chainHead(ctx.db, organizationId);
  if (head && (head.seq !== lastSeq || head.hash !== (lastHash ?? GENESIS_HASH))) {
    flag({
      id: null,
      seq: head.seq,
      reason:
        head.seq > lastSeq
          ? `entries ${lastSeq + 1} to ${head.seq} were removed from the end`
          : 'the chain head does not match the newest entry',
    });
  }

  // The store is the authority on how far the chain was signed; the database's newest row is only where to look.
  const row = await latestSignedHead(ctx.db, organizationId);
  const found = await newestStoredHead(ctx, organizationId, row?.objectKey);
  if (row && found.hint) {
    const seq = Number(row.seq);
    if (!found.hint.ok) {
      flag({
        id: null,
        seq,
        reason: `the database's record of the signed head at entry ${seq} has no valid stored object: ${found.hint.reason}`,
      });
    } else {
      const h = found.hint.head;
      if (
        h.seq !== seq ||
        h.hash !== row.hash ||
        h.signature !== row.signature ||
        h.keyId !== row.keyId ||
        h.signedAt !== new Date(row.signedAt).toISOString()
      ) {
        flag({ id: null, seq, reason: `the database's record of the signed head at entry ${seq} differs from its stored object` });
      }
    }
  }
  for (const r of found.rejected) flag({ id: null, seq: r.seq, reason: `a stored chain head does not hold: ${r.reason}` });

  const stored = found.head;
  if (stored) {
    if (stored.seq > lastSeq) {
      flag({
        id: null,
        seq: stored.seq,
        reason: `entries ${lastSeq + 1} to ${stored.seq} were removed after the chain head was signed`,
      });
    } else {
      const at = await chainEntryAt(ctx.db, organizationId, stored.seq);
      if (!at || at.hash !== stored.hash)
        flag({ id: at?.id ?? null, seq: stored.seq, reason: 'the chain differs from its signed head: entries were rewritten' });
    }
  }
  invalid.sort((a, b) => a.seq - b.seq);
  return {
    isValid: invalidCount === 0,
    checkedEntries: checked,
    invalidEntries: invalid,
    signedHead: stored ? summaryOf(stored) : null,
    anchor: stored
      ? { status: 'signed', message: AUDIT_LOG_MSG.anchorSigned(stored.seq, stored.signedAt, lastSeq) }
      : { status: 'none', message: AUDIT_LOG_MSG.anchorNone },
  };
}

function addYears(d: Date, years: number): Date {
  const r = new Date(d);
  r.setUTCFullYear(r.getUTCFullYear() + years);
  return r;
}

/** The chain does not extend its newest signed head intact: signing it would vouch for a rewritten history. */
class ChainNotSignableError extends Error {
  constructor(organizationId: string, reason: string) {
    super(`The audit chain of ${organizationId} was not signed: ${reason}`);
    this.name = 'ChainNotSignableError';
  }
}

/**
 * Why the chain from the signed head `base` (or from its start) to `head` is not an intact extension of it, or
 * null when it is: the entry at the signed position still has the signed hash, and every later entry links to
 * the one before and hashes to what it says (an archived entry: by its link).
 */
async function extensionProblem(
  db: Executor,
  organizationId: string,
  base: StoredHead | null,
  head: { seq: number; hash: string },
): Promise<string | null> {
  if (base && base.seq > head.seq) return `the chain ends at entry ${head.seq}, before its signed head at entry ${base.seq}`;
  let prev = GENESIS_HASH;
  let afterSeq = 0;
  if (base) {
    const at = await chainEntryAt(db, organizationId, base.seq);
    if (!at || at.hash !== base.hash) return `entry ${base.seq} no longer has the hash its signed head vouches for`;
    prev = base.hash;
    afterSeq = base.seq;
  }
  for (;;) {
    const batch = await chainBatch(db, organizationId, afterSeq, VERIFY_BATCH);
    for (const r of batch) {
      const seq = Number(r.seq);
      if (seq !== afterSeq + 1) return `entry ${afterSeq + 1} is missing`;
      if (r.prevHash !== prev) return `entry ${seq} does not link to the entry before it`;
      if (!r.archived && hashOf(prev, r, r.details) !== r.hash) return `entry ${seq} was altered`;
      prev = r.hash;
      afterSeq = seq;
    }
    if (batch.length < VERIFY_BATCH) break;
  }
  if (afterSeq !== head.seq || prev !== head.hash) return `the chain head (entry ${head.seq}) is not its newest entry`;
  return null;
}

/**
 * Signs the organization's chain head as it stands, stores the signed document under a write-once lock
 * (audit-heads.ts names it) and records it. A position signed already is not signed again, by this process or
 * any other: the signing of one organization is serialized by an advisory lock, and the record's (chain, seq)
 * is unique. Only a chain that extends the newest stored head intact is signed (else ChainNotSignableError).
 * Answers the signed position, or null when the organization has no entry yet.
 */
export async function signChainHead(
  ctx: AppContext,
  organizationId: string,
  reason: SigningReason,
  now = new Date(),
): Promise<{ seq: number; hash: string; objectKey: string } | null> {
  const head = await chainHead(ctx.db, organizationId);
  if (!head) return null;
  const last = await latestSignedHead(ctx.db, organizationId);
  if (last && Number(last.seq) === head.seq && last.hash === head.hash)
    return { seq: head.seq, hash: last.hash, objectKey: last.objectKey };
  // Read before the transaction: nothing the store search does may wait for the database connection it holds.
  const { head: stored } = await newestStoredHead(ctx, organizationId, last?.objectKey);
  const signer = await certificateSigner(ctx.config);
  return ctx.db.transaction().execute(async (trx) => {
    await lockHeadSigning(trx, organizationId);
    const current = await chainHead(trx, organizationId);
    if (!current) return null;
    const latest = await latestSignedHead(trx, organizationId);
    // Another process signed this position while this one waited for the lock.
    if (latest && Number(latest.seq) === current.seq && latest.hash === current.hash)
      return { seq: current.seq, hash: latest.hash, objectKey: latest.objectKey };
    if (stored && stored.seq === current.seq && stored.hash === current.hash) {
      // Stored, but its record was lost (a crash after the store write): the record is written again.
      await insertSignedHead(trx, {
        organizationId,
        chainKey: organizationId,
        seq: String(stored.seq),
        hash: stored.hash,
        signedAt: new Date(stored.signedAt),
        reason,
        objectKey: stored.objectKey,
        keyId: stored.keyId,
        signature: stored.signature,
      });
      return { seq: stored.seq, hash: stored.hash, objectKey: stored.objectKey };
    }
    const problem = await extensionProblem(trx, organizationId, stored, current);
    if (problem) throw new ChainNotSignableError(organizationId, problem);
    // Whole seconds: the stored time reads back exactly as signed.
    const signedAt = new Date(Math.floor(now.getTime() / 1000) * 1000);
    const payload = headPayload(organizationId, current.seq, current.hash, signedAt);
    const signature = signer.signJson(payload);
    const doc = { payload, algorithm: 'Ed25519', keyId: signer.keyId, publicKey: signer.publicKeyPem, signature };
    const objectKey = headObjectKey(organizationId, current.seq, signedAt);
    await ctx.store.putLocked({
      key: objectKey,
      body: Buffer.from(`${canonicalJson(doc)}\n`, 'utf8'),
      contentType: 'application/json',
      lock: { mode: 'COMPLIANCE', retainUntil: addYears(signedAt, SIGNED_HEAD_RETENTION_YEARS), legalHold: false },
    });
    await insertSignedHead(trx, {
      organizationId,
      chainKey: organizationId,
      seq: String(current.seq),
      hash: current.hash,
      signedAt,
      reason,
      objectKey,
      keyId: signer.keyId,
      signature,
    });
    return { seq: current.seq, hash: current.hash, objectKey };
  });
}

/** What a signing run did: the organizations signed, and those whose chain could not be signed (and why). */
export type SigningRun = {
  signed: Array<{ organizationId: string; seq: number }>;
  failed: Array<{ organizationId: string; error: string }>;
};

/** Organizations whose chain moved since its last signed head (all of them, or the one asked for). */
export async function organizationsToSignNow(ctx: AppContext, organizationId?: string): Promise<string[]> {
  const moved = await organizationsToSign(ctx.db);
  return organizationId === undefined ? moved : moved.filter((id) => id === organizationId);
}

/** The organization's chain head as the writer keeps it (null before its first entry). */
export function chainHeadOf(ctx: AppContext, organizationId: string): Promise<{ seq: number; hash: string } | null> {
  return chainHead(ctx.db, organizationId);
}

/** Every organization that has an audit chain. */
export function organizationsWithAuditChains(ctx: AppContext): Promise<string[]> {
  return organizationsWithChains(ctx.db);
}

/** Signs every organization whose chain moved since its last signed head (or only `organizationId`). */
export async function signAllChainHeads(ctx: AppContext, reason: SigningReason = 'interval', organizationId?: string): Promise<SigningRun> {
  const run: SigningRun = { signed: [], failed: [] };
  for (const id of await organizationsToSignNow(ctx, organizationId)) {
    try {
      const r = await signChainHead(ctx, id, reason);
      if (r) run.signed.push({ organizationId: id, seq: r.seq });
    } catch (err) {
      // One organization's failure (a store outage, a chain that does not extend its head) holds up no other.
      ctx.log.error({ err, organizationId: id }, 'signing an audit chain head failed');
      run.failed.push({ organizationId: id, error: (err as Error).message });
    }
  }
  return run;
}
