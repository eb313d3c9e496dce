/**
 * GET /_api/audit-logs/chain-export: an organization's audit chain as signed JSON lines, for checking with no
 * server, no database and no network (scripts/verify-audit.mjs).
 *
 * The lines, each a JSON object and a newline:
 *   1. the header: what the export is (organization, the range asked and the positions it covers, when it was
 *      made, the ids of the keys that signed what follows);
 *   2. every entry of the range in sequence order, with every field its hash covers, its prevHash and its hash
 *      (an archived entry's details read back from its archive, as the integrity check does);
 *   3. the signed heads that vouch for the range, each exactly the document stored in the write-once store: the
 *      head at the position before the range (proving the hash the range starts from) and the newest head within
 *      the range (proving every entry up to it);
 *   4. the summary, signed with the installation's key: the count, the first and last positions and hashes, and
 *      the sha256 of every byte before it, so no line can be changed, dropped, added or moved unnoticed.
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { AuditChainExportQuery } from '@strongroom/contracts';
import { certificateSigner, type CertificateSigner } from '../../platform/signing.js';
import { canonicalJson } from '../../platform/signing-verify.js';
import { auditFor } from '../../shared/audit.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import type { AuthContext } from '../sessions/index.js';
import { archivedDetailsOf, signChainHead } from './audit-chain.service.js';
import { headsCoveringRange, type StoredHead } from './audit-heads.js';
import { chainBatch, chainHead, chainRangeByDate, signedHeadsBetween } from './audit.repository.js';

/** Entries read per statement while streaming. */
const EXPORT_BATCH = 2000;
const FORMAT = 'strongroom-audit-chain-export';

type Range = { firstSeq: number; lastSeq: number } | null;

/** GET /_api/audit-logs/chain-export (administrators, system MFA of the export class). */
export async function exportAuditChain(
  ctx: AppContext,
  auth: AuthContext,
  q: AuditChainExportQuery,
  meta: RequestMeta,
): Promise<{ fileName: string; body: Readable }> {
  const organizationId = auth.user.organizationId;
  const generatedAt = new Date();
  // The head as it stands is signed first, so that an export up to now is vouched for up to its newest entry.
  try {
    await signChainHead(ctx, organizationId, 'manual');
  } catch (err) {
    // The export still answers; its newest entries are then stated as not covered by a signed head.
    ctx.log.warn({ err, organizationId }, 'the audit chain head was not signed before the chain export');
  }
  const range = await auth.stepUp.run(async (trx) => {
    // The export covers the chain as it stands now; its own entry (below) and later ones are not in it.
    const head = await chainHead(trx, organizationId);
    const found: Range = head
      ? await chainRangeByDate(
          trx,
          organizationId,
          { start: q.startDate ? new Date(q.startDate) : undefined, end: q.endDate ? new Date(q.endDate) : undefined },
          head.seq,
        )
      : null;
    await auditFor(auth.user, meta)(
      trx,
      'AUDIT_CHAIN_EXPORTED',
      { table: 'audit_logs', id: null },
      {
        startDate: q.startDate ?? null,
        endDate: q.endDate ?? null,
        firstSeq: found?.firstSeq ?? null,
        lastSeq: found?.lastSeq ?? null,
        count: found ? found.lastSeq - found.firstSeq + 1 : 0,
      },
    );
    return found;
  });
  const signer = await certificateSigner(ctx.config);
  let heads: StoredHead[] = [];
  if (range) {
    const [hint] = await signedHeadsBetween(ctx.db, organizationId, range.firstSeq, range.lastSeq, 1);
    const covering = await headsCoveringRange(ctx, organizationId, range.firstSeq, range.lastSeq, hint?.objectKey);
    heads = [covering.start, covering.newest].filter((h): h is StoredHead => h !== null);
  }
  const header = {
    type: 'header',
    format: FORMAT,
    version: 1,
    organizationId,
    range: {
      startDate: q.startDate ?? null,
      endDate: q.endDate ?? null,
      firstSeq: range?.firstSeq ?? null,
      lastSeq: range?.lastSeq ?? null,
    },
    generatedAt: generatedAt.toISOString(),
    keyIds: [...new Set([signer.keyId, ...heads.map((h) => h.keyId)])],
  };
  const stamp = generatedAt
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  return {
    fileName: `strongroom_audit_chain_${stamp}.ndjson`,
    body: Readable.from(exportLines(ctx, organizationId, header, range, heads, signer)),
  };
}

async function* exportLines(
  ctx: AppContext,
  organizationId: string,
  header: Record<string, unknown>,
  range: Range,
  heads: StoredHead[],
  signer: CertificateSigner,
): AsyncGenerator<string> {
  const digest = createHash('sha256');
  const emit = (line: string) => {
    digest.update(line, 'utf8');
    return line;
  };
  yield emit(`${canonicalJson(header)}\n`);
  let count = 0;
  let first: { seq: number; prevHash: string; hash: string } | null = null;
  let last: { seq: number; hash: string } | null = null;
  if (range) {
    let afterSeq = range.firstSeq - 1;
    while (afterSeq < range.lastSeq) {
      const batch = (await chainBatch(ctx.db, organizationId, afterSeq, EXPORT_BATCH)).filter((r) => Number(r.seq) <= range.lastSeq);
      if (batch.length === 0) break;
      const archived = await archivedDetailsOf(ctx, organizationId, batch);
      const lines: string[] = [];
      for (const r of batch) {
        const seq = Number(r.seq);
        const details = r.archived ? (archived?.get(seq) ?? null) : r.details;
        const entry = {
          type: 'entry',
          chainKey: r.chainKey,
          seq,
          organizationId: r.organizationId,
          actorId: r.actorId,
          actorName: r.actorName,
          actorEmail: r.actorEmail,
          action: r.action,
          targetTable: r.targetTable,
          targetId: r.targetId,
          details,
          ipAddress: r.ipAddress,
          createdAt: new Date(r.createdAt).toISOString(),
          archived: r.archived,
          prevHash: r.prevHash,
          hash: r.hash,
        };
        lines.push(emit(`${canonicalJson(entry)}\n`));
        first ??= { seq, prevHash: r.prevHash, hash: r.hash };
        last = { seq, hash: r.hash };
        count += 1;
      }
      yield lines.join('');
      afterSeq = Number(batch[batch.length - 1]!.seq);
    }
  }
  // Each head exactly as the write-once store holds it (its canonical JSON is one line).
  for (const h of heads) yield emit(h.text.endsWith('\n') ? h.text : `${h.text}\n`);
  const payload = {
    kind: 'audit-chain-export-summary',
    version: 1,
    organizationId,
    generatedAt: header.generatedAt,
    count,
    firstSeq: first?.seq ?? null,
    firstPrevHash: first?.prevHash ?? null,
    firstHash: first?.hash ?? null,
    lastSeq: last?.seq ?? null,
    lastHash: last?.hash ?? null,
    heads: heads.length,
    linesSha256: digest.digest('hex'),
  };
  yield `${canonicalJson({ type: 'summary', payload, algorithm: 'Ed25519', keyId: signer.keyId, publicKey: signer.publicKeyPem, signature: signer.signJson(payload) })}\n`;
}
