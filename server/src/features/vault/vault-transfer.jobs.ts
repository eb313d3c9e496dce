/**
 * vault-transfer: moves a vaulted matter's files into the vault (write-once storage), one durable job per matter,
 * enqueued in the transaction that vaulted the matter. For each file not yet in the vault:
 *   1. copy the working copy to its vault key under the lock (COMPLIANCE, retain-until = the matter's retention
 *      end, legal hold as the matter has it);
 *   2. read the vault copy back: its sha256 and size must be the ones recorded when the file was uploaded, and
 *      the lock the store answers for it (vaultInfo) must hold at least what was asked: a weaker one (no lock, an
 *      earlier retain-until, the legal hold off) fails the file, unless an administrator allowed a store that
 *      does not enforce write-once (VAULT_ALLOW_UNLOCKED_STORE);
 *   3. only then, in one transaction: the vault object's row, the node pointing at the vault copy, the progress,
 *      and the deletion of the working copy as a durable job; once that commits the working copy is deleted at
 *      once, and the job removes it later if the process died in between. The working copy is never removed
 *      before the vault row exists.
 * A file whose vault copy does not match is never recorded: VAULT_TRANSFER_FAILED names it and why, the run
 * fails and the queue retries it with backoff. The copy that did not match stays in the vault (nothing can remove
 * it before its retention ends); a later run copies the file to a fresh key beside it.
 *
 * A run first asks the store whether it enforces write-once (it can change after the vault request): when it does
 * not and that is not allowed, the run fails before it copies anything, and is retried.
 *
 * When every file is in, the certificate is written: the VAULT_TRANSFER_COMPLETED entry is recorded once (the
 * chain head the certificate quotes), every object's lock is read back from the store (the certificate states those
 * answers, and whether the store protected the files at all), the signed certificate is stored under the vault lock at a key named by its
 * own hash, and one transaction records it, audits VAULT_CERTIFICATE_ISSUED and marks the transfer completed.
 * Every step can be run again: killed at any point and restarted, the job ends with each file in the vault once,
 * none lost, and one certificate. A run after completion does nothing.
 *
 * vault-hold-sync: the vault objects' legal holds follow the matter's (a hold removed or applied again by an
 * admin). It reads the matter's hold when it runs, so holds flipped quickly one after another end as the last.
 */
import { failpoint } from '../../platform/failpoints.js';
import { createHash } from 'node:crypto';
import type { SignedCertificate, VaultCertificatePayload } from '@strongroom/contracts';
import type { Executor } from '../../platform/db/database.js';
import { certificateBytes, signCertificate } from '../../platform/signing.js';
import { BlobNotSupportedError, BlobObjectExistsError, type VaultLock } from '../../platform/storage/blob-store.js';
import { auditFor, latestEntryPosition } from '../../shared/audit.js';
import type { AppContext } from '../../shared/context.js';
import { enqueueObjectDeletion, keysStillReferenced, moveVersionToVaultCopy } from '../nodes/index.js';
import { certifiedLock, lockShortfall, readWriteOnceStatus, requireWriteOnceStore, storeProtection } from './vault-protection.js';
import {
  findMatterRow,
  findVaultCertificate,
  insertVaultCertificate,
  lockTransfer,
  matterFileVersions,
  matterNodes,
  objectsWithOtherHold,
  organizationName,
  recordVaultedFile,
  setObjectHold,
  updateTransfer,
  vaultObjectsOf,
  vaultedVersionKeys,
  type MatterFileVersionRow,
  type MatterNodeRow,
} from './vault.repository.js';
import { countVaultTransfer } from '../../platform/metrics.js';

export const VAULT_TRANSFER_JOB = 'vault-transfer';
export const VAULT_HOLD_SYNC_JOB = 'vault-hold-sync';
export type VaultMatterJob = { organizationId: string; matterId: string };

/** Files copied at once: the copy and the read-back of one overlap the other's (hashing runs on worker threads). */
const COPY_CONCURRENCY = 3;
/** Fresh keys tried for a file whose earlier vault copy did not match (that copy stays locked where it is). */
const MAX_KEY_VARIANTS = 5;

/**
 * Where a version of a file lives in the vault: vault/<organization>/<matter>/<node> for version 1, <node>.v<N>
 * for version N, then .2, .3 after a bad copy.
 */
export function vaultObjectKey(organizationId: string, matterId: string, nodeId: string, variant = 1, versionNumber = 1): string {
  return `vault/${organizationId}/${matterId}/${nodeId}${versionNumber > 1 ? `.v${versionNumber}` : ''}${variant > 1 ? `.${variant}` : ''}`;
}

/** Where a certificate lives in the vault: named by its kind, when it was issued and its own sha256. */
function certificateKey(organizationId: string, matterId: string, issuedAt: Date, sha256: string): string {
  const compact = issuedAt.toISOString().replace(/[-:]/g, '').replace('.', '');
  return `vault/${organizationId}/${matterId}/certificates/vault-${compact}-${sha256.slice(0, 16)}.json`;
}

/** One version of a file to put in the vault. */
type VersionToVault = { versionNumber: number; storagePath: string; sha256Hash: string; size: number; current: boolean };
/** A file of the matter with its path in the matter ('Folder/Sub/file.pdf') and its versions, oldest first. */
type FileToVault = { nodeId: string; path: string; versions: VersionToVault[] };
type Failure = {
  nodeId: string | null;
  path: string;
  reason: string;
  versionNumber?: number;
  objectKey?: string;
  expected?: string;
  found?: string;
};

/** Every file of the matter with its path, and every version of each. */
function filesWithPaths(nodes: MatterNodeRow[], versions: MatterFileVersionRow[]): FileToVault[] {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const pathOf = (n: MatterNodeRow): string => {
    const names: string[] = [];
    const seen = new Set<string>();
    for (let cur: MatterNodeRow | undefined = n; cur && !seen.has(cur.id); cur = cur.parentId ? byId.get(cur.parentId) : undefined) {
      seen.add(cur.id);
      names.unshift(cur.name);
    }
    return names.join('/');
  };
  const versionsOf = new Map<string, VersionToVault[]>();
  for (const v of versions) {
    if (v.sha256Hash === null) continue;
    const list = versionsOf.get(v.nodeId) ?? [];
    list.push({
      versionNumber: v.versionNumber,
      storagePath: v.storagePath,
      sha256Hash: v.sha256Hash,
      size: Number(v.fileSize),
      current: v.versionNumber === v.currentVersion,
    });
    versionsOf.set(v.nodeId, list);
  }
  return nodes
    .filter((n) => n.nodeType === 'file' && n.storagePath !== null && n.sha256Hash !== null)
    .map((node) => ({
      nodeId: node.id,
      path: pathOf(node),
      // A file recorded before versions were kept is its own single version.
      versions: versionsOf.get(node.id) ?? [
        { versionNumber: 1, storagePath: node.storagePath!, sha256Hash: node.sha256Hash!, size: Number(node.fileSize ?? 0), current: true },
      ],
    }));
}

function jobOrigin(organizationId: string) {
  return auditFor({ organizationId, actor: null });
}

/** Copies one version of a file to the vault and checks it; answers the recorded object, or the failure. */
async function vaultOneVersion(
  ctx: AppContext,
  job: VaultMatterJob,
  file: FileToVault,
  version: VersionToVault,
  lock: VaultLock,
): Promise<{ ok: true } | { ok: false; failure: Failure }> {
  const base = { nodeId: file.nodeId, path: file.path, versionNumber: version.versionNumber };
  for (let variant = 1; variant <= MAX_KEY_VARIANTS; variant++) {
    const vaultKey = vaultObjectKey(job.organizationId, job.matterId, file.nodeId, variant, version.versionNumber);
    let info;
    try {
      info = await ctx.store.copyToVault({ sourceKey: version.storagePath, vaultKey, lock });
    } catch (err) {
      // The key holds other bytes: an earlier copy that did not match. The next key is tried.
      if (err instanceof BlobObjectExistsError) continue;
      return { ok: false, failure: { ...base, objectKey: vaultKey, reason: `copy failed: ${(err as Error).message}` } };
    }
    // The sha256 of the stored copy: as the store read it back while storing it, or read back here.
    const found = info.readBackSha256 ?? (await ctx.store.sha256(vaultKey));
    // The lock as the store answers it now, never as it was asked for.
    const readBack = await ctx.store.vaultInfo(vaultKey);
    if (!readBack) return { ok: false, failure: { ...base, objectKey: vaultKey, reason: 'the vault copy is gone when read back' } };
    const shortfall = lockShortfall(readBack.lock, lock);
    if (shortfall && !ctx.config.vaultAllowUnlockedStore) {
      return { ok: false, failure: { ...base, objectKey: vaultKey, reason: shortfall } };
    }
    if (found !== version.sha256Hash || info.size !== version.size) {
      return {
        ok: false,
        failure: {
          ...base,
          objectKey: vaultKey,
          reason: found !== version.sha256Hash ? 'sha256 mismatch' : 'size mismatch',
          expected: `${version.sha256Hash} (${version.size} bytes)`,
          found: `${found} (${info.size} bytes)`,
        },
      };
    }
    const recorded = await ctx.db.transaction().execute(async (trx) => {
      const inserted = await recordVaultedFile(
        trx,
        {
          organizationId: job.organizationId,
          matterId: job.matterId,
          nodeId: file.nodeId,
          versionNumber: version.versionNumber,
          path: file.path,
          objectKey: vaultKey,
          versionId: readBack.versionId,
          sha256: found,
          size: version.size,
          storageClass: info.storageClass,
          retainUntil: lock.retainUntil,
          // The hold the matter asks for: the hold sync makes the store follow it.
          legalHold: readBack.lock?.legalHold ?? lock.legalHold,
        },
        version.current,
      );
      if (!inserted) return false;
      // The version (and the node, for the current one) points at the vault copy from now on.
      const moved = { nodeId: file.nodeId, versionNumber: version.versionNumber, current: version.current };
      await moveVersionToVaultCopy(trx, job.organizationId, moved, version.storagePath, vaultKey);
      // The working copy goes once this commits and nothing else points at it (a restored version shares its
      // object with the one it was restored from): a durable job, so that a crash before the delete below still
      // removes it when the job runs. The job keeps an object some version still points at; the last version
      // moved off it enqueues it again.
      await enqueueObjectDeletion(ctx, trx, job.organizationId, [version.storagePath], 'vaulted');
      return true;
    });
    if (recorded && !(await keysStillReferenced(ctx.db, [version.storagePath])).has(version.storagePath)) {
      await ctx.store.delete(version.storagePath);
    }
    await failpoint(ctx, 'vault.transfer.after-file', { key: version.storagePath });
    return { ok: true };
  }
  return { ok: false, failure: { ...base, reason: `every vault key tried holds other bytes (${MAX_KEY_VARIANTS} keys)` } };
}

/** Puts every version of one file in the vault, oldest first (the current one last); stops at the first failure. */
async function vaultOneFile(
  ctx: AppContext,
  job: VaultMatterJob,
  file: FileToVault,
  done: Set<string>,
  lock: VaultLock,
): Promise<{ ok: true } | { ok: false; failure: Failure }> {
  for (const version of file.versions) {
    if (done.has(`${file.nodeId}/${version.versionNumber}`)) continue;
    const result = await vaultOneVersion(ctx, job, file, version, lock);
    if (!result.ok) return result;
  }
  return { ok: true };
}

/** Runs `work` over the items, `limit` at a time. */
async function eachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

class VaultTransferFailed extends Error {}

/** One run of a matter's transfer (see the top of this file). */
export async function runVaultTransfer(ctx: AppContext, job: VaultMatterJob): Promise<'completed' | 'nothing-to-do'> {
  const started = await ctx.db.transaction().execute(async (trx) => {
    const transfer = await lockTransfer(trx, job.organizationId, job.matterId);
    if (!transfer || transfer.state === 'completed') return null;
    await updateTransfer(trx, job.organizationId, job.matterId, { state: 'transferring', addAttempt: true });
    return transfer;
  });
  if (!started) return 'nothing-to-do';
  const matter = await findMatterRow(ctx.db, job.organizationId, job.matterId);
  if (!matter || !matter.isVaulted || !matter.retentionExpiresAt) throw new Error('the matter of this vault transfer is not vaulted');
  const lock: VaultLock = { mode: 'COMPLIANCE', retainUntil: matter.retentionExpiresAt, legalHold: matter.legalHold };

  try {
    await requireWriteOnceStore(ctx);
  } catch (err) {
    await failTransfer(ctx, job, [{ nodeId: null, path: '(every file)', reason: (err as Error).message }]);
  }

  const [nodes, versions] = await Promise.all([
    matterNodes(ctx.db, job.organizationId, job.matterId),
    matterFileVersions(ctx.db, job.organizationId, job.matterId),
  ]);
  const files = filesWithPaths(nodes, versions);
  const done = await vaultedVersionKeys(ctx.db, job.organizationId, job.matterId);
  const todo = files.filter((f) => f.versions.some((v) => !done.has(`${f.nodeId}/${v.versionNumber}`)));
  const failures: Failure[] = [];
  await eachLimited(todo, COPY_CONCURRENCY, async (file) => {
    const result = await vaultOneFile(ctx, job, file, done, lock);
    if (!result.ok) failures.push(result.failure);
  });

  if (failures.length > 0) await failTransfer(ctx, job, failures);
  await writeCertificate(ctx, job, files.length);
  countVaultTransfer('completed');
  return 'completed';
}

/** Audits each failure, marks the transfer failed with the reasons, and throws so that the queue retries it. */
async function failTransfer(ctx: AppContext, job: VaultMatterJob, failures: Failure[]): Promise<never> {
  await ctx.db.transaction().execute(async (trx) => {
    const audit = jobOrigin(job.organizationId);
    for (const failure of failures) await audit(trx, 'VAULT_TRANSFER_FAILED', { table: 'matters', id: job.matterId }, { ...failure });
    await updateTransfer(trx, job.organizationId, job.matterId, {
      state: 'failed',
      lastError: failures.map((f) => `${f.path}: ${f.reason}`).join('; '),
    });
  });
  countVaultTransfer('failed');
  throw new VaultTransferFailed(`${failures.length} file(s) of matter ${job.matterId} could not be vaulted; the transfer is retried`);
}

/** The certificate and the end of the transfer; every step may run again after a crash. */
async function writeCertificate(ctx: AppContext, job: VaultMatterJob, fileCount: number): Promise<void> {
  const target = { table: 'matters', id: job.matterId };
  // The completion is recorded once; its audit entry is the chain head the certificate quotes.
  const completedAt = await ctx.db.transaction().execute(async (trx) => {
    const transfer = await lockTransfer(trx, job.organizationId, job.matterId);
    if (!transfer) throw new Error('the vault transfer disappeared');
    if (transfer.completedAt) return transfer.completedAt;
    const objects = await vaultObjectsOf(trx, job.organizationId, job.matterId);
    const bytes = objects.reduce((sum, o) => sum + Number(o.size), 0);
    const now = new Date(Math.floor(Date.now()));
    await updateTransfer(trx, job.organizationId, job.matterId, { completedAt: now, lastError: null });
    await jobOrigin(job.organizationId)(trx, 'VAULT_TRANSFER_COMPLETED', target, {
      files: new Set(objects.map((o) => o.nodeId)).size,
      versions: objects.length,
      bytes,
      expectedFiles: fileCount,
    });
    return now;
  });
  // The objects' holds as the matter's now, so that the certificate states what is in force.
  await syncObjectHolds(ctx, job);
  if (await findVaultCertificate(ctx.db, job.organizationId, job.matterId)) {
    await updateTransfer(ctx.db, job.organizationId, job.matterId, { state: 'completed' });
    return;
  }
  const matter = await findMatterRow(ctx.db, job.organizationId, job.matterId);
  if (!matter?.retentionExpiresAt) throw new Error('the matter of this vault transfer is not vaulted');
  const objects = await vaultObjectsOf(ctx.db, job.organizationId, job.matterId);
  // Each object's lock as the store answers it now (after the hold sync); the matter's lock is what it must hold.
  const wanted: VaultLock = { mode: 'COMPLIANCE', retainUntil: matter.retentionExpiresAt, legalHold: matter.legalHold };
  const status = await readWriteOnceStatus(ctx);
  const certified: VaultCertificatePayload['files'] = [];
  const failures: Failure[] = [];
  for (const o of objects) {
    const info = await ctx.store.vaultInfo(o.objectKey);
    const shortfall = info ? lockShortfall(info.lock, wanted) : 'the vault copy is gone';
    if (!info || (shortfall && !ctx.config.vaultAllowUnlockedStore)) {
      failures.push({ nodeId: o.nodeId, path: o.path, objectKey: o.objectKey, reason: shortfall ?? 'the vault copy is gone' });
      continue;
    }
    certified.push({
      path: o.path,
      fileVersion: o.versionNumber,
      size: Number(o.size),
      sha256: o.sha256,
      objectKey: o.objectKey,
      ...certifiedLock(info),
    });
  }
  if (failures.length > 0) await failTransfer(ctx, job, failures);
  const head = await latestEntryPosition(ctx.db, job.organizationId, 'VAULT_TRANSFER_COMPLETED', target);
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  const payload: VaultCertificatePayload = {
    kind: 'vault-certificate',
    version: 1,
    issuedAt: completedAt.toISOString(),
    organization: { id: job.organizationId, name: await organizationName(ctx.db, job.organizationId) },
    matter: {
      id: matter.id,
      matterName: matter.matterName,
      matterNumber: matter.matterNumber,
      clientName: matter.clientName,
      vaultedAt: iso(matter.vaultedAt),
      retentionExpiresAt: iso(matter.retentionExpiresAt),
    },
    files: certified,
    // Files counted once however many versions each has; every version is listed and its bytes counted.
    totals: {
      files: new Set(objects.map((o) => o.nodeId)).size,
      versions: objects.length,
      bytes: objects.reduce((sum, o) => sum + Number(o.size), 0),
    },
    auditChainHead: head,
    // Protected only when the store enforces write-once and confirmed a lock on every file.
    storeProtection: storeProtection(status.enforced && certified.every((f) => f.lockMode !== null)),
  };
  const signed: SignedCertificate = await signCertificate(ctx.config, payload);
  const body = certificateBytes(signed);
  const sha256 = createHash('sha256').update(body).digest('hex');
  const objectKey = certificateKey(job.organizationId, job.matterId, completedAt, sha256);
  // The same payload signs to the same bytes (Ed25519 is deterministic), so a repeat finds them stored already.
  await ctx.store.putLocked({
    key: objectKey,
    body,
    contentType: 'application/json',
    lock: { mode: 'COMPLIANCE', retainUntil: matter.retentionExpiresAt, legalHold: matter.legalHold },
  });
  await ctx.db.transaction().execute(async (trx) => {
    await lockTransfer(trx, job.organizationId, job.matterId);
    const inserted = await insertVaultCertificate(trx, {
      organizationId: job.organizationId,
      matterId: job.matterId,
      objectKey,
      sha256,
      issuedAt: completedAt,
      body: signed,
    });
    if (inserted) {
      await jobOrigin(job.organizationId)(trx, 'VAULT_CERTIFICATE_ISSUED', target, {
        objectKey,
        sha256,
        keyId: signed.keyId,
        files: payload.totals.files,
        bytes: payload.totals.bytes,
        auditChainHead: head,
      });
    }
    await updateTransfer(trx, job.organizationId, job.matterId, { state: 'completed' });
  });
}

/** Sets every vault object's legal hold to the matter's (store first, then the row; both idempotent). */
async function syncObjectHolds(ctx: AppContext, job: VaultMatterJob): Promise<number> {
  const matter = await findMatterRow(ctx.db, job.organizationId, job.matterId);
  if (!matter?.isVaulted) return 0;
  const on = matter.legalHold;
  const objects = await objectsWithOtherHold(ctx.db, job.organizationId, job.matterId, on);
  for (const object of objects) {
    try {
      await ctx.store.setLegalHold(object.objectKey, on);
    } catch (err) {
      // A store allowed without write-once (evaluation only) may keep no holds at all: there is nothing to set,
      // and the certificates already say that nothing locks these objects. Anywhere else the failure stands.
      if (!(err instanceof BlobNotSupportedError && ctx.config.vaultAllowUnlockedStore)) throw err;
      ctx.log.warn({ objectKey: object.objectKey, on }, 'the object store keeps no legal holds; the vault object has none');
    }
    await setObjectHold(ctx.db, job.organizationId, object.id, on);
  }
  return objects.length;
}

/** Enqueues the transfer in the caller's transaction (the one that vaulted the matter). */
export function enqueueVaultTransfer(ctx: AppContext, trx: Executor, job: VaultMatterJob): Promise<string> {
  return ctx.jobs.enqueue<VaultMatterJob>(trx, VAULT_TRANSFER_JOB, job);
}

/** Enqueues the hold sync in the caller's transaction (the one that changed the matter's hold). */
export function enqueueVaultHoldSync(ctx: AppContext, trx: Executor, job: VaultMatterJob): Promise<string> {
  return ctx.jobs.enqueue<VaultMatterJob>(trx, VAULT_HOLD_SYNC_JOB, job);
}

export function defineVaultTransferJobs(ctx: AppContext): void {
  ctx.jobs.define<VaultMatterJob>({
    name: VAULT_TRANSFER_JOB,
    handler: async (data) => {
      await runVaultTransfer(ctx, data);
    },
    // A failed file is retried with backoff (15 s, 30 s, 1 min, ... up to 6 hours), twelve times.
    retryLimit: 12,
    retryDelaySeconds: 15,
    // A repeat costs nothing (files in the vault are skipped, records are written once): a run whose process
    // died is taken over promptly.
    heartbeatSeconds: 10,
    expireInSeconds: 6 * 3600,
    pollingIntervalSeconds: 2,
  });
  ctx.jobs.define<VaultMatterJob>({
    name: VAULT_HOLD_SYNC_JOB,
    handler: async (data) => {
      await syncObjectHolds(ctx, data);
    },
    heartbeatSeconds: 10,
    pollingIntervalSeconds: 2,
  });
}
