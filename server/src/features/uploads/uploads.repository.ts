import { sql, type Selectable } from 'kysely';
import { keyServesLiveFile, organizationOfKey } from '../nodes/index.js';

/** Matches no organization: a key that names none belongs to no upload. */
const NO_ORGANIZATION = '00000000-0000-0000-0000-000000000000';
import type { Executor } from '../../platform/db/database.js';
import type { UploadSessionsTable } from '../../platform/db/schema.js';

export type UploadSessionRow = Selectable<UploadSessionsTable>;

export function insertUploadSession(
  db: Executor,
  values: Pick<
    UploadSessionRow,
    'organizationId' | 'userId' | 'matterId' | 'parentId' | 's3Key' | 'uploadId' | 'fileName' | 'fileType' | 'kind' | 'expiresAt'
  > & {
    fileSize: number | null;
    onConflict: UploadSessionRow['onConflict'];
  },
) {
  return db
    .insertInto('uploadSessions')
    .values({ ...values, nodeId: null, finishedAt: null })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** An upload session named by its organization and id (every lookup of one names both). */
type UploadRef = { id: string; organizationId: string };

export function findUploadById(db: Executor, upload: UploadRef) {
  return db
    .selectFrom('uploadSessions')
    .selectAll()
    .where('organizationId', '=', upload.organizationId)
    .where('id', '=', upload.id)
    .executeTakeFirst();
}

/** The user's own upload with that key (and upload id for multipart); nobody else's answers undefined. */
export function findUserUpload(
  db: Executor,
  who: { organizationId: string; userId: number },
  s3Key: string,
  uploadId: string | null,
  opts: { lock?: boolean } = {},
) {
  let q = db
    .selectFrom('uploadSessions')
    .selectAll()
    .where('organizationId', '=', who.organizationId)
    .where('userId', '=', who.userId)
    .where('s3Key', '=', s3Key);
  q = uploadId === null ? q.where('uploadId', 'is', null) : q.where('uploadId', '=', uploadId);
  return opts.lock ? q.forUpdate().executeTakeFirst() : q.executeTakeFirst();
}

/**
 * The same lookup for a part's presign, with the state of the upload's matter in the same query (one round trip
 * per part instead of two: the presign call is made once per 10 MiB).
 */
export function findUserUploadWithMatterState(
  db: Executor,
  who: { organizationId: string; userId: number },
  s3Key: string,
  uploadId: string,
) {
  return db
    .selectFrom('uploadSessions as u')
    .innerJoin('matters as m', (join) => join.onRef('m.id', '=', 'u.matterId').onRef('m.organizationId', '=', 'u.organizationId'))
    .selectAll('u')
    .select(['m.isVaulted as matterIsVaulted', 'm.status as matterStatus', 'm.legalHold as matterLegalHold'])
    .where('u.organizationId', '=', who.organizationId)
    .where('u.userId', '=', who.userId)
    .where('u.s3Key', '=', s3Key)
    .where('u.uploadId', '=', uploadId)
    .executeTakeFirst();
}

export function lockUploadSession(db: Executor, upload: UploadRef) {
  return db
    .selectFrom('uploadSessions')
    .selectAll()
    .where('organizationId', '=', upload.organizationId)
    .where('id', '=', upload.id)
    .forUpdate()
    .executeTakeFirst();
}

/**
 * Takes the upload for one completion: pending, or held by a completion whose lease ran out (its process died).
 * One statement, so of any number of concurrent callers exactly one gets the row back.
 */
export function claimUpload(db: Executor, upload: UploadRef, claimId: string, leaseMs: number) {
  const now = new Date();
  return db
    .updateTable('uploadSessions')
    .set({ status: 'completing', claimId, claimedAt: now })
    .where('organizationId', '=', upload.organizationId)
    .where('id', '=', upload.id)
    .where('expiresAt', '>', now)
    .where((eb) =>
      eb.or([
        eb('status', '=', 'pending'),
        eb.and([eb('status', '=', 'completing'), eb('claimedAt', '<', new Date(now.getTime() - leaseMs))]),
      ]),
    )
    .returningAll()
    .executeTakeFirst();
}

/** Renews a held claim's lease; false when the claim is no longer this completion's. */
export async function renewClaim(db: Executor, upload: UploadRef, claimId: string): Promise<boolean> {
  const res = await db
    .updateTable('uploadSessions')
    .set({ claimedAt: new Date() })
    .where('organizationId', '=', upload.organizationId)
    .where('id', '=', upload.id)
    .where('status', '=', 'completing')
    .where('claimId', '=', claimId)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Gives a held upload back (pending again), so a corrected retry can complete it. No-op once it is finished. */
export function releaseClaim(db: Executor, upload: UploadRef, claimId: string) {
  return db
    .updateTable('uploadSessions')
    .set({ status: 'pending', claimId: null, claimedAt: null })
    .where('organizationId', '=', upload.organizationId)
    .where('id', '=', upload.id)
    .where('status', '=', 'completing')
    .where('claimId', '=', claimId)
    .executeTakeFirst();
}

/**
 * Aborts an upload that is pending, or held by a completion whose lease ran out (it died); undefined when a
 * live completion holds it or it already ended.
 */
export function abortUploadSession(db: Executor, upload: UploadRef, leaseMs: number) {
  const now = new Date();
  return db
    .updateTable('uploadSessions')
    .set({ status: 'aborted', finishedAt: now, claimId: null, claimedAt: null })
    .where('organizationId', '=', upload.organizationId)
    .where('id', '=', upload.id)
    .where((eb) =>
      eb.or([
        eb('status', '=', 'pending'),
        eb.and([eb('status', '=', 'completing'), eb('claimedAt', '<', new Date(now.getTime() - leaseMs))]),
      ]),
    )
    .returningAll()
    .executeTakeFirst();
}

/** Finishes an upload this completion holds; undefined when the claim was lost. */
export function finishClaimed(
  db: Executor,
  upload: UploadRef,
  claimId: string,
  status: 'completed' | 'failed',
  nodeId: string | null = null,
) {
  return db
    .updateTable('uploadSessions')
    .set({ status, nodeId, finishedAt: new Date(), claimId: null, claimedAt: null })
    .where('organizationId', '=', upload.organizationId)
    .where('id', '=', upload.id)
    .where('status', '=', 'completing')
    .where('claimId', '=', claimId)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Uploads past their time, oldest first: pending ones, and completions that stopped (their lease ran out)
 * without a retry finishing them.
 */
export function expiredPendingUploads(db: Executor, now: Date, limit: number, leaseMs = 0) {
  return db
    .selectFrom('uploadSessions')
    .selectAll()
    .where('expiresAt', '<', now)
    .where((eb) =>
      eb.or([
        eb('status', '=', 'pending'),
        eb.and([eb('status', '=', 'completing'), eb('claimedAt', '<', new Date(now.getTime() - leaseMs))]),
      ]),
    )
    .orderBy('expiresAt')
    .limit(limit)
    .execute();
}

/** Ends a stale upload (pending, or completing with a lapsed lease) as expired; undefined when it moved on. */
export function expireUploadSession(db: Executor, session: Pick<UploadSessionRow, 'id' | 'organizationId' | 'status' | 'claimId'>) {
  let q = db
    .updateTable('uploadSessions')
    .set({ status: 'expired', finishedAt: new Date(), claimId: null, claimedAt: null })
    .where('organizationId', '=', session.organizationId)
    .where('id', '=', session.id)
    .where('status', '=', session.status);
  q = session.claimId === null ? q.where('claimId', 'is', null) : q.where('claimId', '=', session.claimId);
  return q.returningAll().executeTakeFirst();
}

/**
 * Upload sessions whose URLs may have been used until recently (their end lies after `since`) and that no
 * longer own their key: aborted, failed, expired, or completed whose file has since been deleted. Whatever
 * sits under their keys is left over (a URL replayed after the end, a crash between the row and the store).
 */
export function deadUploadsSince(db: Executor, since: Date, afterId: string | null, limit: number) {
  let q = db
    .selectFrom('uploadSessions as u')
    .leftJoin('nodes as n', (j) => j.onRef('n.storagePath', '=', 'u.s3Key').onRef('n.organizationId', '=', 'u.organizationId'))
    .select(['u.id', 'u.organizationId', 'u.s3Key', 'u.uploadId', 'u.kind'])
    .where('u.expiresAt', '>', since)
    .where('n.id', 'is', null)
    .where('u.status', 'in', ['aborted', 'failed', 'expired', 'completed'])
    .orderBy('u.id')
    .limit(limit);
  if (afterId) q = q.where('u.id', '>', afterId);
  return q.execute();
}

/** Finished upload records older than `before` (kept a while for support, then removed). */
export async function purgeFinishedUploads(db: Executor, before: Date): Promise<number> {
  const res = await db
    .deleteFrom('uploadSessions')
    .where('status', 'not in', ['pending', 'completing'])
    .where('createdAt', '<', before)
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

/**
 * Bytes the organization holds or has reserved: its stored files, plus the declared sizes of uploads in
 * flight (pending and not expired, or being completed), not counting `exceptSessionId`.
 */
export async function storageInUse(db: Executor, organizationId: string, exceptSessionId: string | null): Promise<number> {
  const { rows } = await sql<{ used: string | number | null }>`
    select
      (select coalesce(sum(file_size), 0) from nodes where organization_id = ${organizationId} and node_type = 'file')
      + (select coalesce(sum(file_size), 0) from upload_sessions
           where organization_id = ${organizationId}
             and (status = 'completing' or (status = 'pending' and expires_at > now()))
             and id is distinct from ${exceptSessionId}::uuid) as used`.execute(db);
  return Number(rows[0]?.used ?? 0);
}

/** Whether an open upload may still receive bytes under this key (the local store asks before each PUT). */
export async function uploadAcceptsBytes(db: Executor, s3Key: string, uploadId: string | null): Promise<boolean> {
  let q = db
    .selectFrom('uploadSessions')
    .select('id')
    .where('organizationId', '=', organizationOfKey(s3Key) ?? NO_ORGANIZATION)
    .where('s3Key', '=', s3Key)
    .where('status', '=', 'pending')
    .where('expiresAt', '>', new Date());
  q = uploadId === null ? q.where('kind', '=', 'standard') : q.where('kind', '=', 'multipart').where('uploadId', '=', uploadId);
  return (await q.executeTakeFirst()) !== undefined;
}

/** Whether a file outside the recycle bin, or one of its versions, points at the object. */
export function objectBelongsToFile(db: Executor, key: string): Promise<boolean> {
  return keyServesLiveFile(db, key);
}
