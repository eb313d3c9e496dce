/**
 * The audit chain's integrity: verifying an organization's whole chain, and signing its head.
 *
 * Each entry's hash covers the previous entry's hash and every recorded field, so a changed, removed or reordered
 * entry breaks the chain at that point. What the chain alone cannot show is the loss of its newest entries, or a
 * table rewritten from scratch with hashes computed anew. So the chain head is signed with the installation's
 * Ed25519 key every day and after each archival, stored in the object store under a write-once lock of
 * SIGNED_HEAD_RETENTION_YEARS, and recorded in audit_signed_heads: the check compares the chain with the newest
 * signed head, whose position must still hold the signed hash.
 */
import { createPublicKey, verify } from 'node:crypto';
import { canonicalJson, certificateSigner } from '../../platform/signing.js';
import { entryHash, GENESIS_HASH } from '../../shared/audit.js';
import type { AppContext } from '../../shared/context.js';
import {
  chainBatch,
  chainEntryAt,
  chainHead,
  insertSignedHead,
  latestSignedHead,
  organizationsToSign,
  type AuditLogRow,
} from './audit.repository.js';

/** How long a signed head stays under its write-once lock: longer than any retention a firm keeps logs for. */
const SIGNED_HEAD_RETENTION_YEARS = 10;
/** Entries read per statement while verifying. */
const VERIFY_BATCH = 5000;
/** At most this many broken entries are listed (the check still counts every entry). */
const MAX_LISTED = 100;

type InvalidEntry = { id: string | null; seq: number; reason: string };
export type ChainCheck = {
  isValid: boolean;
  checkedEntries: number;
  invalidEntries: InvalidEntry[];
  signedHead: { seq: number; hash: string; signedAt: string } | null;
};

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

/** What is signed: the chain, its position and hash, and when. */
function headPayload(organizationId: string, seq: number, hash: string, signedAt: Date) {
  return { kind: 'audit-chain-head', version: 1, organizationId, chainKey: organizationId, seq, hash, signedAt: signedAt.toISOString() };
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

/** Walks the organization's whole chain in sequence order, in batches, and lists what does not hold. */
export async function verifyOrganizationChain(ctx: AppContext, organizationId: string): Promise<ChainCheck> {
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
    const archivedSeqs = batch.filter((r) => r.archived).map((r) => Number(r.seq));
    const archived =
      archivedSeqs.length && archivedDetails
        ? await archivedDetails(ctx, organizationId, Math.min(...archivedSeqs), Math.max(...archivedSeqs))
        : null;
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

  const signed = await latestSignedHead(ctx.db, organizationId);
  let signedHead: ChainCheck['signedHead'] = null;
  if (signed) {
    const seq = Number(signed.seq);
    signedHead = { seq, hash: signed.hash, signedAt: new Date(signed.signedAt).toISOString() };
    const payload = headPayload(organizationId, seq, signed.hash, new Date(signed.signedAt));
    const signer = await certificateSigner(ctx.config);
    const signatureOk = verify(
      null,
      Buffer.from(canonicalJson(payload), 'utf8'),
      createPublicKey(signer.publicKeyPem),
      Buffer.from(signed.signature, 'base64'),
    );
    if (!signatureOk || signed.keyId !== signer.keyId) {
      flag({ id: null, seq, reason: 'the signed chain head record was altered (its signature does not hold)' });
    } else if (seq > lastSeq) {
      flag({ id: null, seq, reason: `entries ${lastSeq + 1} to ${seq} were removed after the chain head was signed` });
    } else {
      const at = await chainEntryAt(ctx.db, organizationId, seq);
      if (!at || at.hash !== signed.hash)
        flag({ id: at?.id ?? null, seq, reason: 'the chain differs from its signed head: entries were rewritten' });
    }
  }
  invalid.sort((a, b) => a.seq - b.seq);
  return { isValid: invalidCount === 0, checkedEntries: checked, invalidEntries: invalid, signedHead };
}

function addYears(d: Date, years: number): Date {
  const r = new Date(d);
  r.setUTCFullYear(r.getUTCFullYear() + years);
  return r;
}

/**
 * Signs the organization's chain head as it stands, stores the signed document under a write-once lock
 * (vault/audit-heads/<organization>/<seq>-<time>.json, where the store keeps write-once objects) and records it. A head signed already is not signed again.
 * Answers the signed position, or null when the organization has no entry yet. Archival calls this after each
 * batch it archives; the daily job calls it for every organization whose chain moved.
 */
export async function signChainHead(
  ctx: AppContext,
  organizationId: string,
  reason: 'daily' | 'archival' | 'manual',
  now = new Date(),
): Promise<{ seq: number; hash: string; objectKey: string } | null> {
  const head = await chainHead(ctx.db, organizationId);
  if (!head) return null;
  const last = await latestSignedHead(ctx.db, organizationId);
  if (last && Number(last.seq) === head.seq) return { seq: head.seq, hash: last.hash, objectKey: last.objectKey };
  const signer = await certificateSigner(ctx.config);
  // Whole seconds: the stored time reads back exactly as signed.
  const signedAt = new Date(Math.floor(now.getTime() / 1000) * 1000);
  const payload = headPayload(organizationId, head.seq, head.hash, signedAt);
  const signature = signer.signJson(payload);
  const doc = { payload, algorithm: 'Ed25519', keyId: signer.keyId, publicKey: signer.publicKeyPem, signature };
  const stamp = signedAt.toISOString().replace(/[-:]/g, '').replace('.000', '');
  const objectKey = `vault/audit-heads/${organizationId}/${head.seq}-${stamp}.json`;
  const body = Buffer.from(`${canonicalJson(doc)}\n`, 'utf8');
  await ctx.store.putLocked({
    key: objectKey,
    body,
    contentType: 'application/json',
    lock: { mode: 'COMPLIANCE', retainUntil: addYears(signedAt, SIGNED_HEAD_RETENTION_YEARS), legalHold: false },
  });
  await insertSignedHead(ctx.db, {
    organizationId,
    chainKey: organizationId,
    seq: String(head.seq),
    hash: head.hash,
    signedAt,
    reason,
    objectKey,
    keyId: signer.keyId,
    signature,
  });
  return { seq: head.seq, hash: head.hash, objectKey };
}

/** The daily signing: every organization whose chain moved since its last signed head. */
export async function signAllChainHeads(ctx: AppContext): Promise<number> {
  let signed = 0;
  for (const organizationId of await organizationsToSign(ctx.db)) {
    try {
      if (await signChainHead(ctx, organizationId, 'daily')) signed += 1;
    } catch (err) {
      // One organization's failure (a store outage) does not hold up the others; the next run signs it.
      ctx.log.error({ err, organizationId }, 'signing an audit chain head failed');
    }
  }
  return signed;
}
