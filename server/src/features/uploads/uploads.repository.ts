import type { Selectable } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import type { UploadSessionsTable } from '../../platform/db/schema.js';

export type UploadSessionRow = Selectable<UploadSessionsTable>;

export function insertUploadSession(
  db: Executor,
  values: Pick<UploadSessionRow, 'organizationId' | 'userId' | 'matterId' | 'parentId' | 's3Key' | 'uploadId' | 'fileName' | 'fileType' | 'kind' | 'expiresAt'> & {
    fileSize: number | null;
  },
) {
  return db.insertInto('uploadSessions').values({ ...values, nodeId: null, finishedAt: null }).returningAll().executeTakeFirstOrThrow();
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
export function findUserUploadWithMatterState(db: Executor, who: { organizationId: string; userId: number }, s3Key: string, uploadId: string) {
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

export function lockUploadSession(db: Executor, id: string) {
  return db.selectFrom('uploadSessions').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export function finishUploadSession(
  db: Executor,
  id: string,
  status: 'completed' | 'aborted' | 'failed' | 'expired',
  nodeId: string | null = null,
  onlyIfPending = true,
) {
  let q = db.updateTable('uploadSessions').set({ status, nodeId, finishedAt: new Date() }).where('id', '=', id);
  if (onlyIfPending) q = q.where('status', '=', 'pending');
  return q.returningAll().executeTakeFirst();
}

/** Pending uploads past their time, oldest first. */
export function expiredPendingUploads(db: Executor, now: Date, limit: number) {
  return db
    .selectFrom('uploadSessions')
    .selectAll()
    .where('status', '=', 'pending')
    .where('expiresAt', '<', now)
    .orderBy('expiresAt')
    .limit(limit)
    .execute();
}

/** Finished upload records older than `before` (kept a while for support, then removed). */
export async function purgeFinishedUploads(db: Executor, before: Date): Promise<number> {
  const res = await db.deleteFrom('uploadSessions').where('status', '!=', 'pending').where('createdAt', '<', before).executeTakeFirst();
  return Number(res.numDeletedRows);
}
