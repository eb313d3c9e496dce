/**
 * vault-retention-end: once a day, the vaulted matters whose retention period has ended, that are not under
 * legal hold and whose destruction an administrator approved in the disposition review (features/disposition)
 * lose their vaulted files, which the write-once lock now lets go. Nothing is destroyed without that approval:
 * a matter nobody reviewed is kept (the review lists it as overdue and reminds the administrators).
 *
 * 1. each object still in the vault is deleted, one at a time, each under the matter's row lock after the hold,
 *    the retention and the approval of this retention end are checked again (a hold applied or the retention
 *    extended meanwhile stops the deletion at once; the matter is left alone until it is approved again), and
 *    marked destroyed in the same transaction. A store that still
 *    holds the object's own legal hold refuses (BlobLockedError): the matter waits for the next run.
 * 2. when none is left, a certificate of destruction (every file deleted: path, size, sha256, object key, and
 *    the version and lock the vault certificate stated for it as the store confirmed them, else none; whether
 *    the store protected the files; and the review that approved it: its approvers and approval request) is signed with the installation's key and stored in the vault under a lock of
 *    DESTRUCTION_CERTIFICATE_YEARS, no legal hold;
 * 3. one transaction records it in vault_certificates and audits RETENTION_CLEANUP with the list of files
 *    deleted and the certificate's key and sha256.
 *
 * Crash-safe and idempotent: a deletion whose mark was lost finds the object gone, which is not an error; the
 * certificate is made from the rows only once every file is marked, its bytes are the same on a re-run (the
 * payload's date is the last deletion's, Ed25519 signatures are deterministic), and when a different one was
 * stored by an earlier run (the audit chain moved on) that stored one is read back, checked and recorded. The
 * record is written once (one destruction certificate per matter), so no file is ever recorded twice.
 * The matter keeps its tree as the record of what it held; downloads of its files answer that they were deleted.
 */
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { signedCertificateSchema, type SignedCertificate, type VaultCertificatePayload } from '@strongroom/contracts';
import { certificateBytes, signCertificate, verifyCertificate } from '../../platform/signing.js';
import { BlobLockedError, BlobObjectExistsError } from '../../platform/storage/blob-store.js';
import { auditFor, type AuditOrigin } from '../../shared/audit.js';
import type { AppContext } from '../../shared/context.js';
import { lockMatterForChange } from '../matters/index.js';
import {
  insertDestructionCertificate,
  markDestroyed,
  matterObjects,
  mattersDueForDestruction,
  organizationName,
  auditChainHead,
  matterCertificates,
} from './vault-queries.repository.js';
import { storeProtection } from './vault-protection.js';
import { approvedReviewFor, latestApprovedReview } from './vault-disposition.repository.js';
import { failpoint } from '../../platform/failpoints.js';

export const VAULT_RETENTION_JOB = 'vault-retention-end';

/** How long a certificate of destruction itself stays write-once in the vault. */
export const DESTRUCTION_CERTIFICATE_YEARS = 10;
const MATTERS_PER_RUN = 500;

type RetentionRun = { mattersFinished: number; filesDeleted: number; mattersWaiting: number };

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const compact = (d: Date) => d.toISOString().replace(/[-:]/g, '').replace('.', '');

function addYears(d: Date, years: number): Date {
  const x = new Date(d.getTime());
  x.setUTCFullYear(x.getUTCFullYear() + years);
  return x;
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

type Outcome = { finished: boolean; deleted: number };

/** Step 1: deletes the matter's objects still in the vault; false when a hold or a lock stopped it. */
async function deleteObjects(
  ctx: AppContext,
  organizationId: string,
  matterId: string,
  now: Date,
): Promise<{ done: boolean; deleted: number }> {
  const objects = (await matterObjects(ctx.db, organizationId, matterId)).filter((o) => o.state === 'vaulted');
  let deleted = 0;
  for (const object of objects) {
    const stopped = await ctx.db.transaction().execute(async (trx) => {
      // Retention end re-checks hold and retention under the matter's row lock.
      const matter = await lockMatterForChange(trx, organizationId, matterId);
      if (!matter || !matter.isVaulted || matter.legalHold || !matter.retentionExpiresAt || matter.retentionExpiresAt > now) return true;
      // Only a destruction approved for this very retention end: an extension or a hold since voids it.
      if (!(await approvedReviewFor(trx, organizationId, matterId, matter.retentionExpiresAt))) return true;
      try {
        await ctx.store.delete(object.objectKey);
      } catch (err) {
        if (err instanceof BlobLockedError) {
          ctx.log.warn({ objectKey: object.objectKey, matterId }, 'retention end: the store still locks this object; the matter waits');
          return true;
        }
        throw err;
      }
      await failpoint(ctx, 'vault.retention.after-delete', { key: object.objectKey });
      await markDestroyed(trx, organizationId, object.id, new Date());
      return false;
    });
    if (stopped) return { done: false, deleted };
    deleted += 1;
  }
  return { done: true, deleted };
}

/** Steps 2 and 3: the certificate of destruction, stored, recorded and audited once. */
async function certify(ctx: AppContext, organizationId: string, matterId: string): Promise<void> {
  const objects = await matterObjects(ctx.db, organizationId, matterId);
  if (objects.some((o) => o.state !== 'destroyed')) return;
  const origin: AuditOrigin = { organizationId, actor: null };
  // What the store confirmed when the files were vaulted: the vault certificate's entries. A file it does not name
  // is stated as not locked, since nothing confirmed a lock on it.
  const vaultCertificate = (await matterCertificates(ctx.db, organizationId, matterId)).find((c) => c.kind === 'vault');
  const confirmed = new Map((vaultCertificate?.body.payload.files ?? []).map((f) => [f.objectKey, f]));
  const wasProtected = vaultCertificate?.body.payload.storeProtection?.writeOnce ?? vaultCertificate !== undefined;
  const review = await latestApprovedReview(ctx.db, organizationId, matterId);
  const result = await ctx.db.transaction().execute(async (trx) => {
    const matter = await lockMatterForChange(trx, organizationId, matterId);
    if (!matter) return null;
    const org = await organizationName(trx, organizationId);
    const destroyedAt = objects.reduce<Date | null>((a, o) => (o.destroyedAt && (!a || o.destroyedAt > a) ? o.destroyedAt : a), null);
    // The date of the last deletion, not of this run: the same certificate on a re-run.
    const issuedAt = destroyedAt ?? matter.retentionExpiresAt ?? new Date(0);
    const payload: VaultCertificatePayload = {
      kind: 'destruction-certificate',
      version: 1,
      issuedAt: issuedAt.toISOString(),
      organization: { id: organizationId, name: org?.name ?? '' },
      matter: {
        id: matter.id,
        matterName: matter.matterName,
        matterNumber: matter.matterNumber,
        clientName: matter.clientName,
        vaultedAt: iso(matter.vaultedAt),
        retentionExpiresAt: iso(matter.retentionExpiresAt),
      },
      files: objects.map((o) => {
        const stated = confirmed.get(o.objectKey);
        return {
          path: o.path,
          fileVersion: o.versionNumber,
          size: Number(o.size),
          sha256: o.sha256,
          objectKey: o.objectKey,
          versionId: stated ? stated.versionId : o.versionId,
          retainUntil: stated ? stated.retainUntil : null,
          lockMode: stated ? stated.lockMode : null,
          // At deletion the hold was off (the store refuses to delete a held object); kept as recorded.
          legalHold: stated?.lockMode ? o.legalHold : false,
        };
      }),
      // Files counted once however many versions each had; every version's object is listed.
      totals: {
        files: new Set(objects.map((o) => o.nodeId)).size,
        versions: objects.length,
        bytes: objects.reduce((s, o) => s + Number(o.size), 0),
      },
      auditChainHead: await auditChainHead(trx, organizationId),
      storeProtection: storeProtection(wasProtected && objects.every((o) => confirmed.get(o.objectKey)?.lockMode)),
      // Who approved the destruction, and through which approval request.
      ...(review
        ? {
            disposition: {
              reviewId: review.id,
              requestId: review.approvalRequestId,
              approvedBy: review.approvedBy.map((p) => ({ userId: p.userId, name: p.name, email: p.email })),
              approvedAt: review.approvedAt.toISOString(),
            },
          }
        : {}),
    };
    return { matter, issuedAt, signed: await signCertificate(ctx.config, payload) };
  });
  if (!result) return;
  const { matter, issuedAt } = result;
  let signed: SignedCertificate = result.signed;
  const key = `vault/${organizationId}/${matterId}/certificates/destruction-${compact(issuedAt)}.json`;
  const lock = { mode: 'COMPLIANCE' as const, retainUntil: addYears(issuedAt, DESTRUCTION_CERTIFICATE_YEARS), legalHold: false };
  let body = certificateBytes(signed);
  try {
    await ctx.store.putLocked({ key, body, contentType: 'application/json', lock });
  } catch (err) {
    if (!(err instanceof BlobObjectExistsError)) throw err;
    // An earlier run stored its certificate and stopped before recording it: that one is the certificate.
    const stored = await readAll(await ctx.store.getStream(key));
    const parsed = signedCertificateSchema.safeParse(JSON.parse(stored.toString('utf8')));
    if (
      !parsed.success ||
      !verifyCertificate(parsed.data) ||
      parsed.data.payload.kind !== 'destruction-certificate' ||
      parsed.data.payload.matter.id !== matterId
    )
      throw new Error(`retention end: ${key} holds something other than this matter's certificate of destruction`, { cause: err });
    signed = parsed.data;
    body = stored;
  }
  const sha256 = createHash('sha256').update(body).digest('hex');
  await ctx.db.transaction().execute(async (trx) => {
    const inserted = await insertDestructionCertificate(trx, {
      organizationId,
      matterId,
      objectKey: key,
      sha256,
      issuedAt,
      body: JSON.stringify(signed),
    });
    if (!inserted) return;
    await auditFor(origin)(
      trx,
      'RETENTION_CLEANUP',
      { table: 'matters', id: matterId },
      {
        matterId,
        matterName: matter.matterName,
        retentionExpiresAt: iso(matter.retentionExpiresAt),
        filesDeleted: signed.payload.totals.files,
        versionsDeleted: signed.payload.files.length,
        bytesDeleted: signed.payload.totals.bytes,
        files: signed.payload.files.map((f) => ({ path: f.path, fileVersion: f.fileVersion, sha256: f.sha256, size: f.size })),
        certificateKey: key,
        certificateSha256: sha256,
        ...(signed.payload.disposition
          ? { reviewId: signed.payload.disposition.reviewId, approvalRequestId: signed.payload.disposition.requestId }
          : {}),
      },
    );
  });
}

async function endRetention(ctx: AppContext, organizationId: string, matterId: string, now: Date): Promise<Outcome> {
  const step = await deleteObjects(ctx, organizationId, matterId, now);
  if (!step.done) return { finished: false, deleted: step.deleted };
  await certify(ctx, organizationId, matterId);
  return { finished: true, deleted: step.deleted };
}

/**
 * One run of retention end over every organization (the daily job's handler), or over one organization's matters
 * (an operator's `run-job retention-end --organization`).
 */
export async function runRetentionEnd(ctx: AppContext, now = new Date(), organizationId?: string): Promise<RetentionRun> {
  const run: RetentionRun = { mattersFinished: 0, filesDeleted: 0, mattersWaiting: 0 };
  const due = await mattersDueForDestruction(ctx.db, now, MATTERS_PER_RUN, organizationId);
  for (const m of due) {
    try {
      const outcome = await endRetention(ctx, m.organizationId, m.id, now);
      run.filesDeleted += outcome.deleted;
      if (outcome.finished) run.mattersFinished += 1;
      else run.mattersWaiting += 1;
    } catch (err) {
      // One matter's failure (a store outage) does not hold up the others; the next run takes it again.
      run.mattersWaiting += 1;
      ctx.log.error({ err, matterId: m.id }, 'retention end failed for a matter');
    }
  }
  ctx.log.info(run, 'retention end run finished');
  return run;
}

export function defineVaultRetentionJobs(ctx: AppContext): void {
  ctx.jobs.define<Record<string, never>>({
    name: VAULT_RETENTION_JOB,
    handler: async () => {
      await runRetentionEnd(ctx);
    },
    // Daily at 03:41 UTC.
    cron: '41 3 * * *',
    pollingIntervalSeconds: 60,
    expireInSeconds: 6 * 3600,
    retryLimit: 3,
    retryDelaySeconds: 600,
  });
}

/** Starts a retention-end run now (operators, tests). */
export async function enqueueRetentionEnd(ctx: AppContext): Promise<string> {
  return ctx.jobs.enqueue(ctx.db, VAULT_RETENTION_JOB, {});
}
